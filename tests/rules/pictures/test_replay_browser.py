"""The replay page in a real browser: headless Chromium driven by Selenium steps through a whole
game with the keyboard, shows the game's last position at the end, and makes no network request.

Outside CI a machine without Chromium, chromedriver or Selenium skips this test and says which
is missing; under CI (``CI=true``, where ``.ci/run`` installs Debian's chromium and
chromium-driver) a missing browser fails it.
"""
import json
import os
import random
import shutil
import time

import pytest

from rules import get_game
from rules.pictures.replay import play_moves, replay_html

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--no-first-run", "--disable-sync", "--disable-background-networking",
                  "--disable-component-update", "--disable-default-apps", "--window-size=1400,1000")


def _missing():
    """Why the browser test cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    if not any(shutil.which(name) for name in BROWSERS):
        return "no Chromium browser on PATH (Debian: apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "no chromedriver on PATH (Debian: apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    reason = _missing()
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser test cannot run under CI: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(shutil.which(n) for n in BROWSERS if shutil.which(n))
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    yield driver
    driver.quit()


def open_page(driver, path):
    """Load a file and return the URLs of every request the browser made for it."""
    driver.get("about:blank")
    driver.get_log("performance")                 # drop what came before
    driver.get(path.as_uri())
    events = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    return [e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"]


def page_state(driver):
    return driver.execute_script(
        "return [Number(document.getElementById('board').dataset.index),"
        " document.querySelector('#board svg title').textContent,"
        " document.getElementById('status').textContent,"
        " document.getElementById('result').hidden,"
        " (document.querySelector('#moves li.current') || {}).textContent || null,"
        " performance.getEntriesByType('resource').length]")


def press(driver, key):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_keyboard_steps_through_the_whole_game_offline(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    start = get_game("freecell").deal(1)
    state, rng, moves = start.copy(), random.Random(5), []
    for _ in range(30):                            # a fixed game: random legal moves, autoplay included
        moves.append(str(state.apply(rng.choice(state.legal_moves()))))
    final = play_moves(start, moves)[-1]
    page = tmp_path / "replay.html"
    page.write_text(replay_html(start, moves, title="browser test"), encoding="utf-8")

    requests = open_page(browser, page)
    assert requests == [page.as_uri()]             # the file itself and nothing else
    index, title, status, result_hidden, current, resources = page_state(browser)
    assert (index, title, result_hidden, current) == (0, f"Freecell: {start.layout()}", True, None)

    for step in range(1, len(moves) + 1):
        press(browser, Keys.ARROW_RIGHT)
        index, title, status, result_hidden, current, resources = page_state(browser)
        assert index == step and status.startswith(f"Move {step} of {len(moves)}: ")
        assert current.endswith(moves[step - 1])   # the move list follows
    assert title == f"Freecell: {final.layout()}"  # the last position is the game's last
    assert not result_hidden and "Result: not finished" in browser.page_source
    press(browser, Keys.ARROW_RIGHT)               # past the end: stays
    assert page_state(browser)[0] == len(moves)
    press(browser, Keys.ARROW_LEFT)
    assert page_state(browser)[0] == len(moves) - 1

    press(browser, Keys.HOME)
    press(browser, Keys.SPACE)                     # play ...
    deadline = time.monotonic() + 10
    while page_state(browser)[0] < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    press(browser, Keys.SPACE)                     # ... and pause
    paused_at = page_state(browser)[0]
    assert paused_at >= 2
    time.sleep(1.5)
    assert page_state(browser)[0] == paused_at

    assert page_state(browser)[5] == 0             # no resource fetched while stepping either
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []                            # no script error, no blocked request
    later = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    assert not [e for e in later if e["method"] == "Network.requestWillBeSent"]


def test_request_check_sees_a_request(browser, tmp_path):
    """The request log this file relies on does catch a page that fetches something."""
    page = tmp_path / "fetches.html"
    page.write_text('<!DOCTYPE html><img src="http://127.0.0.1:9/pixel.png">', encoding="utf-8")
    assert "http://127.0.0.1:9/pixel.png" in open_page(browser, page)
