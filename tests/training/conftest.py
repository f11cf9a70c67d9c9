"""Fixtures of the training tests."""

import pytest


@pytest.fixture(scope="module")
def one_torch_thread():
    """One torch thread: on a shared machine torch's spin-waiting threads make small passes slow."""
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
