"""The lab page in Debian's Chromium: a designer picks a game, options, a sweep and bots with
parameters, watches the progress bar, and gets the figures, the sentences and the downloads,
each with the command that makes it again; bad input is one sentence; axe-core finds nothing
serious."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator

import pandas as pd
import pytest
import uvicorn
from playwright import sync_api

from bestiary.bench.loadtest import free_port
from bestiary.sim.lab_page import HOST, lab_app
from tests.browser import CHROMIUM, PAGE_ERRORS, audit, launch, new_page, screenshot

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture(scope="module")
def lab() -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(lab_app(), host=HOST, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the lab did not start"
        time.sleep(0.01)
    yield f"http://{HOST}:{port}"
    server.should_exit = True
    thread.join(timeout=20)


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


# The progress bar's value and maximum (evaluated by the browser's devtools: the page's own
# Content-Security-Policy holds for everything else).
BAR = "() => { const bar = document.getElementById('progress'); return [bar.value, bar.max]; }"


def _open(browser: sync_api.Browser, url: str) -> sync_api.Page:
    page = new_page(browser, own_policy=True)
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def test_a_designer_sweeps_a_setting_and_reads_the_report(
    lab: str, browser: sync_api.Browser
) -> None:
    PAGE_ERRORS.clear()
    page = _open(browser, lab)
    problems = audit(page, "the lab's choices")
    page.select_option("#game", "wild")
    page.fill("#players", "4")
    page.fill("#bots", "reader(decay=0.5),honest,hunter,trickster")
    page.fill("#option-mating_bonus", "true")
    page.check("#q-sweep")
    assert page.is_visible("#sweep") and not page.is_visible("#compare")
    page.fill("#sweep", "nightfall_seconds=30,60")
    page.fill("#games", "40")
    page.fill("#seed", "2")
    page.click("#run")
    page.wait_for_selector("#running:not([hidden])")
    seen: set[tuple[float, float]] = set()
    deadline = time.monotonic() + 240
    while not page.is_visible("#report") and time.monotonic() < deadline:
        assert not page.is_visible("#error"), page.inner_text("#error")
        value, most = page.evaluate(BAR)
        seen.add((value, most))
        page.wait_for_timeout(30)
    assert page.is_visible("#report"), "no report in 240 s"
    # The bar counted the games of all three arms (baseline at 120 s, then 30 and 60).
    assert {most for _, most in seen} == {120}
    assert any(0 < value < 120 for value, _ in seen), f"the bar never moved between: {seen}"
    assert page.evaluate(BAR) == [120, 120]
    command = page.inner_text("#report-command")
    assert command == (
        "bestiary sim wild --players 4 --bots 'reader(decay=0.5),honest,hunter,trickster' "
        "--games 40 --seed 2 --jobs 1 --option mating_bonus=true "
        "--sweep nightfall_seconds=30,60"
    )
    figures = page.locator("#figures figure")
    assert figures.count() >= 6
    images = page.locator("#figures figure img")
    assert images.count() >= 5
    for i in range(images.count()):
        assert page.evaluate(
            "(img) => img.complete && img.naturalWidth > 100", images.nth(i).element_handle()
        )
    sweep = page.locator('#figures figure[data-heading="Sweep nightfall_seconds"]')
    assert sweep.locator("code").inner_text() == command + " --figures figures"
    assert "figures/sweep-nightfall_seconds.png" in sweep.inner_text()
    sentences = page.inner_text("#sentences")
    assert "sweep nightfall_seconds" in sentences and "reader(decay=0.5)" in sentences
    csv = page.locator("#download-csv")
    with page.expect_download() as got:
        csv.click()
    rows = pd.read_csv(got.value.path())
    assert len(rows) == 120 and set(rows["option_mating_bonus"]) == {True}
    parquet = page.request.get(lab + str(page.get_attribute("#download-parquet", "href")))
    assert len(pd.read_parquet(io.BytesIO(parquet.body()))) == 120
    downloads = page.inner_text("#downloads")
    assert command + " --table games.parquet" in downloads
    problems += audit(page, "the lab's report")
    screenshot(page, "lab-report.png")
    assert not problems, problems
    assert not PAGE_ERRORS, PAGE_ERRORS


def test_bad_choices_are_one_sentence_on_the_page(lab: str, browser: sync_api.Browser) -> None:
    PAGE_ERRORS.clear()
    page = _open(browser, lab)
    page.select_option("#game", "critters")
    assert page.input_value("#bots") == "greedy"
    page.fill("#bots", "greedy(leader=99)")
    page.fill("#games", "5")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])")
    error = page.inner_text("#error")
    assert error == "bot 'greedy': leader=99 is outside 0 to 10"
    assert not page.is_visible("#report") and not page.is_visible("#running")
    page.fill("#bots", "greedy,random")
    page.check("#q-grid")
    page.fill("#grid", "set_size=3,4")
    page.click("#run")
    deadline = time.monotonic() + 20
    while "--grid" not in page.inner_text("#error") and time.monotonic() < deadline:
        page.wait_for_timeout(30)
    assert "--grid needs exactly two keys" in page.inner_text("#error")
    assert not PAGE_ERRORS, PAGE_ERRORS
