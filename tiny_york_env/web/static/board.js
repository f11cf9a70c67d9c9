// The browser board: set up a game, play a seat, watch bots, scrub a saved game.
// The page's address holds what it shows after the '#': game=ID&token=T (a seat), game=ID&host=H
// (a watched game) or replay=ID&at=K. Tokens go to the server only in the X-Token header.
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
const HINT = "Click a highlighted place on the board or an option, or type its number.";
let info = null;
let current = null;     // {kind, id, token, host, at}
let pollTimer = null;
let watchTimer = null;
let lastMoves = -1;

function hashParams() {
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
}

async function api(path, options = {}, token = null) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers["X-Token"] = token;
  const response = await fetch(path, Object.assign({}, options, { headers }));
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function post(path, body, token) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return api(path, { method: "POST", body: text, headers: { "Content-Type": "application/json" } }, token);
}

function showError(id, error) {
  $(id).textContent = error ? String(error.message || error) : "";
}

// --- set-up -----------------------------------------------------------------------------------
async function loadInfo() {
  info = await api("/api/info");
  const select = $("game");
  select.replaceChildren();
  for (const g of info.games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.title;
    select.appendChild(option);
  }
  select.addEventListener("change", gameChanged);
  gameChanged();
}

function gameChanged() {
  const g = info.games.find((x) => x.name === $("game").value);
  $("automatic-label").textContent = g.automatic_keyword === "toms" ? "Toms (the engine plays them)"
    : g.automatic_keyword ? "Engine bots (the engine plays them)" : "Engine players";
  $("seat-rows").replaceChildren();
  for (const seat of g.seat_default) addPickerRow("seat-rows", seatChoices(g), seat, "agent seat");
  $("automatic-rows").replaceChildren();
  for (const a of g.automatic_default) addPickerRow("automatic-rows", automaticChoices(g), a, "engine player");
  $("automatic-words").textContent = "Played by the engine: " + g.automatic_words + ".";
}

function currentGame() {
  return info.games.find((x) => x.name === $("game").value);
}

function seatChoices(g) {
  return [[g.person, "a person"], ...g.policies.map((p) => [p, p])];
}

function automaticChoices(g) {
  return g.automatic.map((a, k) => [String(a), g.automatic_labels[k]]);
}

// one row of a picker: a menu of the choices (value, words) and a button that removes the row
function addPickerRow(rowsId, choices, value, what) {
  const rows = $(rowsId);
  const row = document.createElement("div");
  row.className = "picker-row";
  const select = document.createElement("select");
  select.setAttribute("aria-label", `${what} ${rows.children.length + 1}`);
  for (const [choice, words] of choices) {
    const option = document.createElement("option");
    option.value = choice;
    option.textContent = words;
    select.appendChild(option);
  }
  select.value = String(value);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `remove ${what} ${rows.children.length + 1}`);
  remove.addEventListener("click", () => row.remove());
  row.append(select, remove);
  rows.appendChild(row);
}

function pickedValues(rowsId) {
  return [...$(rowsId).querySelectorAll("select")].map((select) => select.value);
}

async function startGame(event) {
  event.preventDefault();
  showError("setup-error", null);
  const automatic = pickedValues("automatic-rows").map((a) => (/^\d+$/.test(a) ? Number(a) : a));
  const request = { game: $("game").value, seats: pickedValues("seat-rows"), automatic };
  // as text: seeds go up to 2**63 - 1, past what a JavaScript number holds exactly
  if ($("seed").value.trim()) request.seed = $("seed").value.trim();
  try {
    const made = await post("/api/games", request);
    const seats = Object.entries(made.seat_tokens);
    if (seats.length === 0) {
      location.hash = `game=${made.id}&host=${made.host_token}`;
    } else {
      sessionStorage.setItem("seat-links-" + made.id, JSON.stringify(made.seat_tokens));
      location.hash = `game=${made.id}&token=${seats[0][1]}`;
    }
  } catch (error) {
    showError("setup-error", error);
  }
}

async function openSaved() {
  showError("setup-error", null);
  const file = $("saved-file").files[0];
  if (!file) return;
  try {
    const made = await post("/api/replays", await file.text());
    location.hash = `replay=${made.id}&at=0`;
  } catch (error) {
    showError("setup-error", error);
  }
}

// --- the table --------------------------------------------------------------------------------
function renderCommon(view) {
  $("board").innerHTML = view.svg;  // drawn and escaped by the server
  if (!view.svg) $("board").textContent = view.text;
  $("text").textContent = view.text;
  const game = info.games.find((g) => g.name === view.game);
  $("legend").textContent = game ? game.legend : "";
  if (game) document.title = $("home").textContent = game.title + " board";  // the game's name
  $("status").textContent = view.status;
  const log = $("log");
  log.replaceChildren();
  for (const line of view.log) {
    const item = document.createElement("li");
    item.textContent = line;
    log.appendChild(item);
  }
  log.scrollTop = log.scrollHeight;  // the newest moves in view, inside the list only
}

function renderGame(view) {
  renderCommon(view);
  lastMoves = view.moves;
  const options = $("options");
  options.replaceChildren();
  $("options-title").hidden = view.watch;
  $("options-hint").hidden = !view.legal.length;  // only when there is something to choose
  $("options-hint").textContent = HINT;
  if (view.over) {
    const winners = view.winners.map((s) => view.names[s]).join(", ");
    $("options-title").textContent = "Game over";
    options.textContent = "Scores: " + view.names.map((n, s) => `${n} ${view.scores[s]}`).join(", ")
      + ". Winner: " + winners + ".";
  } else if (view.legal.length) {
    $("options-title").textContent = "Your options";
    for (const [index, option] of view.legal.entries()) {
      const button = document.createElement("button");
      button.className = "option";
      button.dataset.action = option.action;
      button.textContent = `${index + 1}. ${option.text}`;
      button.addEventListener("click", () => act(option.action));
      options.appendChild(button);
    }
    markPlaces(view.legal);
  } else if (!view.watch) {
    $("options-title").textContent = "Waiting for " + view.names[view.to_move];
  }
  const download = $("download");
  download.hidden = !view.saved_game;  // sent only at the end (or for a watched game)
  if (view.saved_game) {
    if (download.href) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([view.saved_game], { type: "application/json" }));
  }
  schedulePoll(view);
}

// --- places on the board: the server names the places of the drawing each legal option refers to
// (the regions' data-place keys); a click on one plays its option, or picks out its options
function markPlaces(legal) {
  for (const region of $("board").querySelectorAll("g[data-place]")) {
    const keys = region.dataset.place.split(" ");
    const here = legal.filter((option) => (option.places || []).some((key) => keys.includes(key)));
    if (!here.length) continue;
    region.classList.add("legal-place");
    region.setAttribute("tabindex", "0");
    region.setAttribute("role", "button");
    region.setAttribute("aria-label", here.map((option) => option.text).join("; or "));
    region.addEventListener("click", (event) => { event.stopPropagation(); choosePlace(here); });
    region.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choosePlace(here); }
    });
  }
}

function choosePlace(here) {
  if (here.length === 1) { act(here[0].action); return; }
  const actions = new Set(here.map((option) => option.action));
  for (const button of document.querySelectorAll("#options button.option")) {
    button.hidden = !actions.has(Number(button.dataset.action));
  }
  $("options-hint").textContent = `${here.length} options for that place: choose one.`;
  if (!$("all-options")) {
    const all = document.createElement("button");
    all.id = "all-options";
    all.textContent = "Show every option";
    all.addEventListener("click", showAllOptions);
    $("options").prepend(all);
  }
}

function showAllOptions() {
  for (const button of document.querySelectorAll("#options button.option")) button.hidden = false;
  if ($("all-options")) $("all-options").remove();
  $("options-hint").textContent = HINT;
}

function schedulePoll(view) {
  clearTimeout(pollTimer);
  if (!view.over && !view.watch && !view.legal.length) pollTimer = setTimeout(refresh, POLL_MS);
}

async function act(action) {
  showError("table-error", null);
  for (const button of document.querySelectorAll("#options button")) button.disabled = true;
  try {
    // the moves of the view acted on: a repeated click after the game moved on is refused
    renderGame(await post(`/api/games/${current.id}/action`, { action, moves: lastMoves }, current.token));
  } catch (error) {
    showError("table-error", error);
    refresh();
  }
}

async function refresh() {
  try {
    if (current.kind === "game") {
      renderGame(await api(`/api/games/${current.id}`, {}, current.token || current.host));
    } else {
      renderReplay(await api(`/api/replays/${current.id}?at=${current.at}`));
    }
  } catch (error) {
    showError("table-error", error);
  }
}

function seatLinks() {
  const links = JSON.parse(sessionStorage.getItem("seat-links-" + current.id) || "{}");
  const box = $("seat-links");
  box.replaceChildren();
  if (Object.keys(links).length < 2) return;
  box.appendChild(document.createTextNode("A link per person seat (send each to its player):"));
  for (const [seat, token] of Object.entries(links)) {
    const link = document.createElement("a");
    link.href = `${location.origin}/#game=${current.id}&token=${token}`;
    link.textContent = ` seat ${seat} `;
    link.target = "_blank";
    box.appendChild(link);
  }
}

function watchControls() {
  const box = $("controls");
  box.replaceChildren();
  const play = document.createElement("button");
  play.id = "play-pause";
  play.textContent = "Play";
  const step = document.createElement("button");
  step.id = "step";
  step.textContent = "Step";
  const speed = document.createElement("select");
  for (const [label, ms] of [["slow", 1500], ["normal", 600], ["fast", 150]]) {
    const option = document.createElement("option");
    option.value = ms;
    option.textContent = label;
    speed.appendChild(option);
  }
  speed.value = 600;
  const tick = async () => {
    try {
      const { played } = await post(`/api/games/${current.id}/step`, { moves: 1 }, current.host);
      await refresh();
      if (!played) stop();
    } catch (error) {
      showError("table-error", error);
      stop();
    }
  };
  const stop = () => { clearTimeout(watchTimer); watchTimer = null; play.textContent = "Play"; };
  const loop = async () => {  // the next step only after the last one came back: no overlap
    await tick();
    if (watchTimer) watchTimer = setTimeout(loop, Number(speed.value));
  };
  play.addEventListener("click", () => {
    if (watchTimer) { stop(); return; }
    play.textContent = "Pause";
    watchTimer = setTimeout(loop, 0);
  });
  speed.addEventListener("change", () => { if (watchTimer) { stop(); play.click(); } });
  step.addEventListener("click", tick);
  box.append(play, step, speed);
}

function replayControls(view) {
  const box = $("controls");
  if (!$("scrub")) {
    box.replaceChildren();
    const make = (id, label, to) => {
      const button = document.createElement("button");
      button.id = id;
      button.textContent = label;
      button.addEventListener("click", () => goTo(to()));
      return button;
    };
    const scrub = document.createElement("input");
    scrub.type = "range";
    scrub.id = "scrub";
    scrub.min = 0;
    scrub.addEventListener("input", () => goTo(Number(scrub.value)));
    const where = document.createElement("span");
    where.id = "where";
    box.append(make("first", "|<", () => 0), make("previous", "<", () => current.at - 1),
      make("next", ">", () => current.at + 1), make("last", ">|", () => Number(scrub.max)), scrub, where);
  }
  $("scrub").max = view.total;
  $("scrub").value = view.at;
  $("where").textContent = ` decision ${view.at} of ${view.total}`;
}

function goTo(at) {
  location.hash = `replay=${current.id}&at=${Math.max(0, at)}`;
}

function renderReplay(view) {
  current.at = view.at;
  renderCommon(view);
  replayControls(view);
  $("options-title").textContent = view.decision;
  $("options").replaceChildren();
}

function route() {
  clearTimeout(pollTimer);
  forgetTyped();  // digits typed for another page's options
  const params = hashParams();
  const showing = params.game || params.replay;
  $("setup").hidden = Boolean(showing);
  $("table").hidden = !showing;
  if (!showing) { $("status").textContent = ""; return; }
  if (params.game) {
    const same = current && current.kind === "game" && current.id === params.game;
    current = { kind: "game", id: params.game, token: params.token || null, host: params.host || null };
    if (!same) {
      clearTimeout(watchTimer);
      watchTimer = null;
      $("controls").replaceChildren();
      if (current.host) watchControls();
      seatLinks();
    }
  } else {
    if (!current || current.kind !== "replay" || current.id !== params.replay) $("controls").replaceChildren();
    current = { kind: "replay", id: params.replay, at: Number(params.at || 0) };
  }
  refresh();
}

// --- keys: the number of an option plays it (digits typed within KEY_WAIT_MS make one number) -
const KEY_WAIT_MS = 700;
let typed = "";
let typedTimer = null;

function forgetTyped() {
  clearTimeout(typedTimer);
  typed = "";
}

function chooseTyped() {
  clearTimeout(typedTimer);
  // an option by the number on its label, shown or not (a place's click hides the others)
  const buttons = [...document.querySelectorAll("#options button.option:not([disabled])")];
  const chosen = buttons[Number(typed) - 1];
  typed = "";
  if (chosen) chosen.click();
}

function onKey(event) {
  if ($("table").hidden || event.target.closest("input, select, textarea")) return;
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const count = document.querySelectorAll("#options button.option:not([disabled])").length;
  if (/^[0-9]$/.test(event.key) && count) {
    if (!typed && event.key === "0") return;  // no option is numbered 0 or starts with it
    typed += event.key;
    clearTimeout(typedTimer);
    // play at once when no longer number could be an option, else wait for another digit
    if (Number(typed) * 10 > count) chooseTyped(); else typedTimer = setTimeout(chooseTyped, KEY_WAIT_MS);
  } else if (event.key === "Enter" && typed) {
    event.preventDefault();  // the typed number, not whatever has the focus
    chooseTyped();
  }
}

window.addEventListener("hashchange", route);
document.addEventListener("keydown", onKey);
$("new-game").addEventListener("submit", startGame);
$("add-seat").addEventListener("click", () => addPickerRow("seat-rows", seatChoices(currentGame()), "person",
  "agent seat"));
$("add-automatic").addEventListener("click", () => {
  const choices = automaticChoices(currentGame());
  if (choices.length) addPickerRow("automatic-rows", choices, choices[0][0], "engine player");
});
$("saved-file").addEventListener("change", openSaved);
loadInfo().then(route, (error) => showError("setup-error", error));
