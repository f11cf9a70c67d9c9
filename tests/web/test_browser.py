"""The browser board in a real headless browser: Debian's Chromium and chromedriver, driven by
Selenium. A whole game against Tom 5 by clicking legal actions; an illegal request and another
seat's token refused by the server; a screenshot of the board kept as a test artifact.

``make test`` installs chromium and chromium-driver with apt-get (Makefile, target ``browser``);
where it could not (no apt-get, no root), it leaves the reason in ``.venv/.browser-unavailable``
and this test skips with it. A machine without the browser and without that note fails: the
browser was expected."""

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is installed by make test")
pytest.importorskip("selenium", reason="selenium is in the dev extra that make test installs")

from tiny_york_env.registry import get_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
UNAVAILABLE_NOTE = ROOT / ".venv" / ".browser-unavailable"
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", ROOT / "test-artifacts"))
CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
# Chromium as the machine's probe runs it: no sandbox (root), no background connections.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1400,1000")
WAIT = 60  # seconds for one page update (the first request compiles the engine)
MAX_CLICKS = 600

if not (CHROMIUM and CHROMEDRIVER):
    if UNAVAILABLE_NOTE.exists():
        pytest.skip(f"BROWSER TEST SKIPPED: no Chromium here and make could not install it: "
                    f"{UNAVAILABLE_NOTE.read_text().strip()}", allow_module_level=True)
    pytest.fail("chromium and chromedriver are not installed: run `make test` (it installs them with "
                "apt-get) or `apt-get install chromium chromium-driver`", pytrace=False)

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from tiny_york_env.web.app import create_app  # noqa: E402


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not running.started:
        assert time.monotonic() < deadline, "the board's server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def fetch(browser, path, method="GET", body=None, token=None):
    """A request from the page itself (the browser's fetch): (status, JSON body)."""
    script = """
        const [path, method, body, token, done] = arguments;
        const headers = {"Content-Type": "application/json"};
        if (token) headers["X-Token"] = token;
        fetch(path, {method, headers, body: body === null ? undefined : body})
          .then(async (r) => done([r.status, await r.json()]), (e) => done([0, String(e)]));
    """
    return browser.execute_async_script(script, path, method, body, token)


def hash_params(browser):
    return dict(p.split("=", 1) for p in browser.execute_script("return location.hash.slice(1)").split("&"))


def test_a_whole_game_against_tom_by_clicking(server, browser):
    browser.set_script_timeout(WAIT)
    wait = WebDriverWait(browser, WAIT)
    browser.get(server + "/")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
    browser.find_element(By.ID, "seed").send_keys("11")
    browser.find_element(By.ID, "start").click()  # you against Tom 5, the page's default
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option"))
    assert browser.find_element(By.CSS_SELECTOR, "#board svg")
    params = hash_params(browser)
    game_id, token = params["game"], params["token"]

    # the server refuses an illegal action and a token that is not this seat's
    status, body = fetch(browser, f"/api/games/{game_id}/action", "POST", json.dumps({"action": 999}), token)
    assert status == 400 and "not legal here" in body["error"]
    status, body = fetch(browser, f"/api/games/{game_id}/action", "POST", json.dumps({"action": 0}),
                         "not-this-seats-token")
    assert status == 403 and "opens no seat" in body["error"]
    other = fetch(browser, "/api/games", "POST", json.dumps({"seats": ["person"], "automatic": [5]}))[1]
    status, _ = fetch(browser, f"/api/games/{game_id}", token=other["seat_tokens"]["0"])
    assert status == 403  # another game's seat token opens nothing here

    clicks, screenshot_taken = 0, False
    while not browser.find_elements(By.XPATH, "//h3[@id='options-title' and text()='Game over']"):
        buttons = browser.find_elements(By.CSS_SELECTOR, "#options button.option:not([disabled])")
        if not buttons:
            time.sleep(0.05)
            continue
        before = browser.find_element(By.ID, "log").text
        buttons[0].click()
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before
                   or b.find_elements(By.XPATH, "//h3[@id='options-title' and text()='Game over']"))
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
        if clicks == 40 and not screenshot_taken:  # a mid-game board for the artifacts
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(ARTIFACTS / "web-board-mid-game.png"))
            screenshot_taken = True
    log = browser.find_element(By.ID, "log").text
    assert "Tom 5 (B4): bid" in log and "Tom 5 (B4): took the pair" in log  # Tom's moves shown
    assert "Scores: you" in browser.find_element(By.ID, "options").text
    assert clicks > 50 and screenshot_taken
    browser.save_screenshot(str(ARTIFACTS / "web-board-game-over.png"))
    assert (ARTIFACTS / "web-board-game-over.png").stat().st_size > 10_000


@pytest.mark.parametrize("game", ["construction_yard", "fifth_avenue"])
def test_start_with_the_setup_pages_defaults_opens_a_table_named_for_the_game(server, browser, game):
    wait = WebDriverWait(browser, WAIT)
    browser.get(server + "/")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
    browser.find_element(By.CSS_SELECTOR, f"#game option[value='{game}']").click()
    browser.find_element(By.ID, "start").click()  # nothing typed: the page's defaults
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option")
               or b.find_element(By.ID, "setup-error").text)
    assert browser.find_element(By.ID, "setup-error").text == ""
    title = get_game(game).title
    wait.until(lambda b: b.find_element(By.ID, "home").text == f"{title} board")
    assert browser.title == f"{title} board"


def pick(browser, rows, values):
    """Set the picker ``rows`` (seat-rows, automatic-rows) to one menu per value, by its buttons."""
    for remove in browser.find_elements(By.CSS_SELECTOR, f"#{rows} .picker-row button"):
        remove.click()
    add = "add-seat" if rows == "seat-rows" else "add-automatic"
    for value in values:
        browser.find_element(By.ID, add).click()
        Select(browser.find_elements(By.CSS_SELECTOR, f"#{rows} select")[-1]).select_by_value(value)


def start_game(server, browser, wait, game="construction_yard", seats=None, automatic=None):
    """Start a game of ``game`` from the setup page, its pickers set to ``seats`` and ``automatic``
    where given (else the page's defaults)."""
    browser.get(server + "/")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
    browser.find_element(By.CSS_SELECTOR, f"#game option[value='{game}']").click()
    if seats is not None:
        pick(browser, "seat-rows", seats)
    if automatic is not None:
        pick(browser, "automatic-rows", automatic)
    browser.find_element(By.ID, "start").click()


def test_watch_two_bots_and_scrub_the_saved_game(server, browser):
    browser.set_script_timeout(WAIT)
    wait = WebDriverWait(browser, WAIT)
    start_game(server, browser, wait, seats=["greedy", "random"])
    wait.until(lambda b: b.find_elements(By.ID, "step"))
    for _ in range(5):
        before = browser.find_element(By.ID, "log").text
        browser.find_element(By.ID, "step").click()
        wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before)
    params = hash_params(browser)
    status, body = fetch(browser, f"/api/games/{params['game']}/step", "POST", json.dumps({"moves": 1}))
    assert status == 403  # only the host's token steps the game
    saved = fetch(browser, f"/api/games/{params['game']}", token=params["host"])[1]["saved_game"]
    made = fetch(browser, "/api/replays", "POST", saved)[1]
    browser.get(f"{server}/#replay={made['id']}&at=0")
    wait.until(lambda b: b.find_elements(By.ID, "next"))
    browser.find_element(By.ID, "next").click()
    wait.until(lambda b: "decision 1 of" in b.find_element(By.ID, "where").text)
    browser.find_element(By.ID, "last").click()
    wait.until(lambda b: f"decision {made['total']} of" in b.find_element(By.ID, "where").text)


def page_widths(browser):
    """(the page's scrolling width, the window's inner width) in CSS pixels."""
    return browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")


def shown(browser, element_id):
    """Whether the element takes room on the page (neither hidden nor display: none)."""
    return browser.execute_script("const e = document.getElementById(arguments[0]);"
                                  "return getComputedStyle(e).display !== 'none' && e.offsetHeight > 0",
                                  element_id)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_setup_page_and_the_board_fit_a_phone_and_a_desktop(server, browser, width):
    """The setup page shows only the setup; a game's page fits the window's width (no sideways
    scrolling of the page) at a phone's 390 px and a desktop's 1280 px, the options under the
    board on a phone, where the board keeps a readable size and pans inside its frame;
    screenshots of both are kept as test artifacts."""
    wait = WebDriverWait(browser, WAIT)
    browser.set_window_size(width, 900)
    try:
        browser.get(server + "/")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
        assert shown(browser, "setup") and not shown(browser, "table")  # no side panel without a game
        assert not browser.find_element(By.ID, "options-title").is_displayed()
        inner = page_widths(browser)[1]
        assert page_widths(browser)[0] <= inner
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"web-setup-{width}px.png"))
        browser.find_element(By.ID, "start").click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option"))
        assert not shown(browser, "setup") and shown(browser, "table")
        frame = browser.find_element(By.ID, "board").rect
        drawing = browser.find_element(By.CSS_SELECTOR, "#board svg").rect
        options = browser.find_element(By.ID, "options").rect
        assert page_widths(browser)[0] <= inner  # nothing sticks out sideways
        assert frame["x"] + frame["width"] <= inner and options["x"] + options["width"] <= inner
        assert drawing["width"] >= min(720, 0.5 * inner)  # never shrunk past reading
        if width < 760:  # a phone: the options under the board, not squeezed beside it
            assert options["y"] >= frame["y"] + frame["height"] - 1
        browser.save_screenshot(str(ARTIFACTS / f"web-board-{width}px.png"))
        assert (ARTIFACTS / f"web-board-{width}px.png").stat().st_size > 10_000
    finally:
        browser.set_window_size(1400, 1000)


def test_number_keys_choose_options(server, browser):
    wait = WebDriverWait(browser, WAIT)
    start_game(server, browser, wait, automatic=["greedy"])
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option"))
    hint = browser.find_element(By.ID, "options-hint")
    assert hint.is_displayed() and "or an option, or type its number" in hint.text
    first = browser.find_elements(By.CSS_SELECTOR, "#options button.option")
    count = len(first)
    assert first[0].text.startswith("1. ")
    choice = min(count, 2)
    expected = first[choice - 1].text.split(". ", 1)[1]
    before = browser.find_element(By.ID, "log").text
    browser.find_element(By.TAG_NAME, "body").send_keys(str(choice))
    wait.until(lambda b: b.find_element(By.ID, "log").text != before)
    assert f"you: {expected}" in browser.find_element(By.ID, "log").text


SCROLL_TO_MIDDLE = "arguments[0].scrollIntoView({block: 'center', inline: 'center'})"


def game_over(browser):
    """Whether the page says the game ended."""
    return bool(browser.find_elements(By.XPATH, "//h3[@id='options-title' and text()='Game over']"))


# Every game at both widths; the default run plays Tiny York at 390 px and the other two at
# 1280 (the narrow games of the other two are in the slow run: about 30 s each).
NARROW_GAMES_IN_THE_DEFAULT_RUN = ("tiny_york",)


@pytest.mark.parametrize(("game", "width"), [
    pytest.param(game, width, marks=[pytest.mark.slow] if width < 1280 and game not in
                 NARROW_GAMES_IN_THE_DEFAULT_RUN else [])
    for game in ("tiny_york", "construction_yard", "fifth_avenue") for width in (1280, 390)])
def test_a_whole_game_played_by_clicking_the_board_where_it_can(server, browser, game, width):
    """The setup page's defaults for ``game``, then every decision that has a place on the board
    (highlighted) is made by clicking that place (when it holds several options, by the option it
    leaves in the list), the others from the list, to the end, at a desktop's and a phone's width."""
    wait = WebDriverWait(browser, WAIT)
    browser.set_window_size(width, 900)
    try:
        browser.get(server + "/")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
        browser.find_element(By.CSS_SELECTOR, f"#game option[value='{game}']").click()
        browser.find_element(By.ID, "seed").send_keys("3")
        browser.find_element(By.ID, "start").click()
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option"))
        on_board = from_list = picked = 0
        deadline = time.monotonic() + WAIT
        while not game_over(browser):
            buttons = browser.find_elements(By.CSS_SELECTOR, "#options button.option:not([disabled])")
            if not buttons:
                assert time.monotonic() < deadline, "no option came up"
                time.sleep(0.05)
                continue
            deadline = time.monotonic() + WAIT
            before = browser.find_element(By.ID, "log").text
            places = browser.find_elements(By.CSS_SELECTOR, "#board g.legal-place")
            if places:
                # a real pointer click on the middle of the place's first shape (its words on top
                # of it take the click and hand it to the place), scrolled into view first
                shape = places[0].find_element(By.CSS_SELECTOR, "rect, line, circle")
                browser.execute_script(SCROLL_TO_MIDDLE, shape)
                if not on_board:  # the highlighted places of the first such decision, for the artifacts
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    browser.save_screenshot(str(ARTIFACTS / f"web-{game}-places-{width}px.png"))
                ActionChains(browser).move_to_element(shape).click().perform()
                on_board += 1
                wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before
                           or game_over(b) or b.find_elements(By.ID, "all-options"))
                if browser.find_elements(By.ID, "all-options"):  # several options there: one of them
                    shown = [b for b in browser.find_elements(By.CSS_SELECTOR, "#options button.option")
                             if b.is_displayed()]
                    assert 1 < len(shown) <= len(buttons)
                    shown[0].click()
                    picked += 1
            else:
                buttons[0].click()
                from_list += 1
            wait.until(lambda b, before=before: b.find_element(By.ID, "log").text != before or game_over(b))
            assert on_board + from_list < MAX_CLICKS, "the game did not end"
            assert page_widths(browser)[0] <= page_widths(browser)[1]  # no sideways page scrolling
        assert "Scores: you" in browser.find_element(By.ID, "options").text
        assert on_board > 5 and on_board + from_list > 10
        if game == "fifth_avenue":
            assert picked > 0  # a commissioner's place or a face-up card holds several options
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"web-{game}-clicked-{width}px.png"))
    finally:
        browser.set_window_size(1400, 1000)


def test_the_seat_picker_offers_every_player_of_the_game_and_the_engines_participants(server, browser):
    """Each agent seat is a menu of a person and every player the registry offers for the game
    (the champion among them); the engine's participants a menu of the game's; a game of you,
    the champion and Tom 3 starts from them."""
    wait = WebDriverWait(browser, WAIT)
    browser.get(server + "/")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#game option"))
    for game in ("construction_yard", "tiny_york"):
        browser.find_element(By.CSS_SELECTOR, f"#game option[value='{game}']").click()
        seat = Select(browser.find_element(By.CSS_SELECTOR, "#seat-rows select"))
        offered = [option.get_attribute("value") for option in seat.options]
        assert offered[0] == "person" and "champion" in offered and "greedy" in offered
        automatic = Select(browser.find_element(By.CSS_SELECTOR, "#automatic-rows select"))
        labels = [option.text for option in automatic.options]
        expected = [get_game(game).automatic_label(a) for a in get_game(game).automatic_choices]
        assert labels == expected
    start_game(server, browser, wait, game="tiny_york", seats=["person", "champion"], automatic=["3"])
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#options button.option")
               or b.find_element(By.ID, "setup-error").text)
    assert browser.find_element(By.ID, "setup-error").text == ""
    params = hash_params(browser)
    names = fetch(browser, f"/api/games/{params['game']}", token=params["token"])[1]["names"]
    assert names[:2] == ["you", "champion"] and names[2].startswith("Tom 3")
