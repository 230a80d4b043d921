"""The playground's pages in a real browser: headless Chromium driven by Selenium, against a
server on 127.0.0.1.  Each page is clicked through and what it shows is checked: a
derivation in the calculator, a table cell's derivation and the mex construction, a Nim game
played to the end against the computer, a Turning Corners move, the sequences.

Skipped, with the reason, when Selenium or Chromium and its driver are not installed
(`.ci/run` installs them: apt-get install chromium chromium-driver; pip install '.[test]').
The browser is kept off the network: every non-local request goes to a dead proxy.

NIMBERS_SCREENSHOTS=docs python -m pytest tests/web/test_web_browser.py
    also saves the screenshots shown in docs/guide.md (web-*.png).
"""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                "(pip install -e '.[test]')")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from nimbers.web import make_server, serve_in_thread  # noqa: E402

BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))
                if p), None)
DRIVER = shutil.which("chromedriver")
if BROWSER is None or DRIVER is None:
    pytest.skip("no headless browser: install Debian's chromium and chromium-driver "
                "(apt-get install -y chromium chromium-driver)", allow_module_level=True)

if os.environ.get("NIMBERS_UNDER_SANITIZER"):
    pytest.skip("the browser is not run under the sanitizers' preloaded libraries (the pages "
                "exercise no C code; the API tests still run)", allow_module_level=True)

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server():
    s = make_server("127.0.0.1", 0, workers=2)
    serve_in_thread(s)
    yield s
    s.shutdown()
    s.server_close()


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1200,900", "--no-first-run", "--disable-extensions",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-default-apps", "--no-pings",
                 # nothing leaves the machine: every request but to localhost hits a dead proxy
                 "--proxy-server=http://127.0.0.1:9"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where screenshots go: docs/ when NIMBERS_SCREENSHOTS=docs, else a temporary folder."""
    if os.environ.get("NIMBERS_SCREENSHOTS") == "docs":
        return ROOT / "docs"
    return tmp_path_factory.mktemp("screenshots")


def wait_text(driver, css, text, timeout=15):
    WebDriverWait(driver, timeout).until(
        EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def open_page(driver, server, page):
    driver.get(server.url + "#" + page)
    WebDriverWait(driver, 15).until(
        EC.visibility_of_element_located((By.ID, "page-" + page)))


def test_calculator_shows_the_product_and_its_derivation(browser, server, shots):
    open_page(browser, server, "calc")
    for field, value in (("calc-a", "8"), ("calc-b", "8")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "calc-go").click()
    wait_text(browser, "#calc-value", "13")
    lines = [d.text for d in browser.find_elements(By.CSS_SELECTOR, "#calc-derivation div")]
    assert lines[0] == "8 ⊗ 8" and lines[-1] == "= 13"
    Select(browser.find_element(By.ID, "calc-base")).select_by_value("bin")
    wait_text(browser, "#calc-value", "0b1101")
    box = browser.find_element(By.ID, "calc-a")
    box.clear()
    box.send_keys("-3")
    browser.find_element(By.ID, "calc-go").click()
    wait_text(browser, "#calc-error", "non-negative")
    box.clear()
    box.send_keys("5")
    b = browser.find_element(By.ID, "calc-b")
    b.clear()
    b.send_keys("11")
    Select(browser.find_element(By.ID, "calc-base")).select_by_value("dec")
    wait_text(browser, "#calc-value", "12")
    browser.save_screenshot(str(shots / "web-calculator.png"))


def test_tables_cell_derivation_subfield_and_mex_steps(browser, server, shots):
    open_page(browser, server, "tables")
    canvas = browser.find_element(By.ID, "tab-canvas")
    WebDriverWait(browser, 15).until(lambda d: canvas.get_attribute("data-cell"))
    # click the cell of row 5, column 11 of the 16 x 16 table
    width = canvas.size["width"]
    cell = width / 16
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(browser).move_to_element_with_offset(
        canvas, int(-width / 2 + 11.5 * cell), int(-width / 2 + 5.5 * cell)).click().perform()
    wait_text(browser, "#tab-cell", "5 ⊗ 11 = 12")
    wait_text(browser, "#tab-derivation", "= 12")
    Select(browser.find_element(By.ID, "tab-sub")).select_by_value("4")
    wait_text(browser, "#tab-cell", "subfield GF(4)")
    # the mex construction: step to cell (2, 2) of the 8 x 8 table: 2 ⊗ 2 = 3
    wait_text(browser, "#mex-info", "step 1 of 64")
    for _ in range(18):
        browser.find_element(By.ID, "mex-next").click()
    wait_text(browser, "#mex-info", "cell (2, 2)")
    wait_text(browser, "#mex-value", "mex = 3")
    assert "{0, 1, 2}" in browser.find_element(By.ID, "mex-info").text
    browser.execute_script("document.getElementById('tab-canvas').scrollIntoView()")
    browser.save_screenshot(str(shots / "web-tables.png"))


def _new_game(browser, kind, **fields):
    Select(browser.find_element(By.ID, "play-game")).select_by_value(kind)
    for field, value in fields.items():
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "play-new").click()
    wait_text(browser, "#play-status", "Your move")


def _hinted_move(browser):
    import json
    browser.find_element(By.ID, "play-hint").click()
    WebDriverWait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#play-hint-box .winning-move")))
    node = browser.find_element(By.CSS_SELECTOR, "#play-hint-box .winning-move")
    return json.loads(node.get_attribute("data-move"))


def test_a_nim_game_played_to_the_end_against_the_computer(browser, server, shots):
    open_page(browser, server, "play")
    _new_game(browser, "nim", **{"play-piles": "3 5 7"})
    for _ in range(20):  # the hint's winning move every time: the human must win
        move = _hinted_move(browser)
        size = len(browser.find_elements(By.CSS_SELECTOR, f'.stone[data-pile="{move["pile"]}"]'))
        moves_before = len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))
        index = size - move["take"]
        browser.find_element(
            By.CSS_SELECTOR, f'.stone[data-pile="{move["pile"]}"][data-index="{index}"]').click()
        WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(
            By.CSS_SELECTOR, "#play-log li")) >= moves_before + 1)
        status = browser.find_element(By.ID, "play-status")
        WebDriverWait(browser, 15).until(
            lambda d: "Your move" in status.text or "win" in status.text)
        if "win" in status.text:
            break
    assert browser.find_element(By.ID, "play-status").text == "You win!"
    assert not browser.find_elements(By.CSS_SELECTOR, ".stone")
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#play-log li")]
    assert log[0].startswith("you:") and log[-1].startswith("you:")
    browser.save_screenshot(str(shots / "web-play-nim.png"))


def test_a_turning_corners_move(browser, server, shots):
    open_page(browser, server, "play")
    _new_game(browser, "tartan", **{"play-tartan-game": "turning-corners", "play-rows": "6",
                                    "play-cols": "6", "play-heads": "2:3,4:5,5:2"})
    move = _hinted_move(browser)
    assert len(move["coins"]) == 4 and move["after_sum"] == "0"
    for a, b in move["coins"]:
        browser.find_element(By.CSS_SELECTOR, f'.coin[data-row="{a}"][data-col="{b}"]').click()
    assert len(browser.find_elements(By.CSS_SELECTOR, ".coin.selected")) == 4
    browser.find_element(By.ID, "play-turn").click()
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(
        By.CSS_SELECTOR, "#play-log li")) == 2)
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#play-log li")]
    assert log[0].startswith("you: turn") and log[1].startswith("computer: turn")
    heads = {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
             for c in browser.find_elements(By.CSS_SELECTOR, ".coin.H")}
    expected = {(2, 3), (4, 5), (5, 2)} ^ {tuple(c) for c in move["coins"]}
    assert heads != expected  # the computer moved after us
    browser.find_element(By.ID, "play-hint").click()
    wait_text(browser, "#play-hint-box", "The value is")
    browser.save_screenshot(str(shots / "web-play-corners.png"))


def test_the_page_reads_a_position_by_the_number_rule(browser, server):
    # the typed words go to the server, which reads them as every door does
    open_page(browser, server, "play")
    _new_game(browser, "nim", **{"play-piles": "0x3, 1_0"})
    wait_text(browser, "#play-board", "pile 1: 10")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".stone")) == 3 + 10
    Select(browser.find_element(By.ID, "play-game")).select_by_value("nim")
    box = browser.find_element(By.ID, "play-piles")
    box.clear()
    box.send_keys("1e3")  # JavaScript's Number() reads 1000; the rule refuses it
    browser.find_element(By.ID, "play-new").click()
    wait_text(browser, "#play-error", "not a number")


@pytest.mark.parametrize("game,heads", [("acrostic-twins", "1:5,3:3"),
                                        ("ruler x mock-turtles", "2:3,4:5")])
def test_every_board_of_the_catalogue_plays_on_the_page(browser, server, game, heads):
    # the page sends the name as typed; the server's catalogue reads it (one reader)
    open_page(browser, server, "play")
    _new_game(browser, "tartan", **{"play-tartan-game": game, "play-rows": "6",
                                    "play-cols": "6", "play-heads": heads})
    move = _hinted_move(browser)
    assert move["after_sum"] == "0"
    for a, b in move["coins"]:
        browser.find_element(By.CSS_SELECTOR, f'.coin[data-row="{a}"][data-col="{b}"]').click()
    browser.find_element(By.ID, "play-turn").click()
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(
        By.CSS_SELECTOR, "#play-log li")) == 2)
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#play-log li")]
    assert log[0] == "you: " + move["text"] and log[1].startswith("computer: turn")


def test_a_kayles_move_and_a_coin_turning_move(browser, server):
    open_page(browser, server, "play")
    _new_game(browser, "heap", **{"play-heap-game": "kayles", "play-heaps": "3 4"})
    move = _hinted_move(browser)  # Kayles 3 + 4: values 3 and 1; take 2 from the 3, leave 1
    assert move["text"] == "take 2 from heap 0 (3 tokens), leaving 1"
    browser.find_element(By.CSS_SELECTOR, '.heap[data-heap="0"]').click()
    WebDriverWait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#play-options .option")))
    option = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#play-options .option")
                  if b.text == move["text"])
    option.click()
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(
        By.CSS_SELECTOR, "#play-log li")) == 2)
    assert browser.find_elements(By.CSS_SELECTOR, "#play-log li")[1].text.startswith("computer:")

    _new_game(browser, "turning", **{"play-turning-game": "ruler", "play-row": "HTHHT"})
    move = _hinted_move(browser)  # Ruler: G = 1, 1, 4 on the heads: turn coin 3 alone
    assert move["coins"] == [3]
    browser.find_element(By.CSS_SELECTOR, '.coin[data-coin="3"]').click()
    browser.find_element(By.ID, "play-turn").click()
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(
        By.CSS_SELECTOR, "#play-log li")) == 2)
    row = "".join(c.text[0] for c in browser.find_elements(By.CSS_SELECTOR, ".coin"))
    assert row != "HTHTT"  # after our move HTHTT (value 0), the computer moved too


def test_sequences_mark_the_period_and_compare_closed_forms(browser, server, shots):
    open_page(browser, server, "sequences")
    wait_text(browser, "#seq-heap-period", "period 12, pre-period 71 (proven)")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seq-heap-plot circle")) == 200
    assert browser.find_elements(By.CSS_SELECTOR, "#seq-heap-plot .preperiod")
    wait_text(browser, "#seq-turn-info", "agree with it")
    rows = browser.find_elements(By.CSS_SELECTOR, "#seq-turn-table tr")
    assert len(rows) == 33 and not browser.find_elements(By.CSS_SELECTOR, "#seq-turn-table td.bad")
    browser.save_screenshot(str(shots / "web-sequences.png"))


def test_api_page_and_a_narrow_screen(browser, server, shots):
    open_page(browser, server, "api")
    wait_text(browser, "#api-list", "/api/calc")
    # a phone's screen: 390 CSS pixels wide, as a phone's browser lays pages out
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for page in ("calc", "tables", "api", "play"):
            open_page(browser, server, page)
            if page == "play":
                _new_game(browser, "turning", **{"play-turning-game": "mocking-turtles",
                                                 "play-row": "THHTTHTH"})
            width = browser.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, page  # nothing sticks out sideways: the page wraps
        browser.save_screenshot(str(shots / "web-narrow.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _table_digits(browser):
    """The tables canvas's cell and digit sizes in CSS pixels, once it is painted."""
    WebDriverWait(browser, 15).until(
        lambda d: d.find_element(By.ID, "tab-canvas").get_attribute("data-font"))
    canvas = browser.find_element(By.ID, "tab-canvas")
    return float(canvas.get_attribute("data-cell")), float(canvas.get_attribute("data-font"))


def test_a_plus_scales_the_table_and_the_coins_and_survives_a_reload(browser, server, shots):
    """A projector: A+ twice makes the text, the tables canvas's digits (drawn at the screen's
    pixel density) and the coins larger, and a reload keeps the size (localStorage)."""
    open_page(browser, server, "tables")
    browser.execute_script("localStorage.clear()")
    browser.refresh()
    cell, font = _table_digits(browser)
    coin = browser.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
    for _ in range(2):
        browser.find_element(By.ID, "large-text").click()
    try:
        WebDriverWait(browser, 15).until(lambda d: _table_digits(d)[1] >= 1.4 * font)
        big_cell, big_font = _table_digits(browser)
        assert big_font >= 16 and big_cell >= 1.4 * cell
        canvas = browser.find_element(By.ID, "tab-canvas")
        ratio = browser.execute_script("return window.devicePixelRatio")
        assert int(canvas.get_attribute("width")) == round(big_cell * 16 * ratio)
        browser.execute_script("document.getElementById('tab-canvas').scrollIntoView()")
        browser.save_screenshot(str(shots / "web-tables-large.png"))
        browser.refresh()
        WebDriverWait(browser, 15).until(
            EC.visibility_of_element_located((By.ID, "page-tables")))
        assert _table_digits(browser) == (big_cell, big_font)  # kept over the reload
        text = browser.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
        assert text >= 1.4 * coin
        open_page(browser, server, "play")
        _new_game(browser, "tartan", **{"play-tartan-game": "turning-corners", "play-rows": "3",
                                        "play-cols": "3", "play-heads": "2:2"})
        WebDriverWait(browser, 15).until(
            EC.presence_of_element_located((By.CSS_SELECTOR, "#play-board .coin")))
        width = browser.find_element(By.CSS_SELECTOR, ".coin").size["width"]
        browser.find_element(By.ID, "small-text").click()
        browser.find_element(By.ID, "small-text").click()
        WebDriverWait(browser, 15).until(
            lambda d: d.find_element(By.CSS_SELECTOR, ".coin").size["width"] < width / 1.4)
    finally:
        browser.execute_script("localStorage.clear()")
