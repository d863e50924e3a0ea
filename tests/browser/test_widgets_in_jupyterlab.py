"""Notebook 03's widgets in a real JupyterLab, driven by Playwright in Debian's Chromium.

Run with `make test-browser`. The server runs on loopback over a temporary copy of the notebook (the
repository's file is never saved over) and is stopped at the end, also when the test fails.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on 127.0.0.1 with a copy of notebook 03; yields its notebook URL."""
    work = tmp_path / "notebooks"
    work.mkdir()
    shutil.copy(ROOT / "notebooks" / "03_layernorm.ipynb", work)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "OMP_NUM_THREADS": "1"}
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "settings")
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
         "--allow-root", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start:\n" + (tmp_path / "server.log").read_text()) from None
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/lab/tree/03_layernorm.ipynb?token={token}"
    finally:
        _stop(server)
        log.close()


def _stop(server: subprocess.Popen) -> None:
    """SIGTERM the server's whole process group (its kernels too), SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def test_three_interactions(lab):
    from playwright.sync_api import expect, sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: `apt-get install -y chromium` (make test-browser does)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        page.set_default_timeout(60_000)
        try:
            page.goto(lab)
            page.locator(".jp-Notebook").first.wait_for()
            page.locator(".jp-StatusBar-Widget:visible", has_text="Idle").first.wait_for()  # kernel started
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            # the notebook's last cell prints this: every cell has run, none will touch the widgets now
            page.get_by_text("BatchNorm con un ejemplo falla: True").wait_for()

            # 1. "Ingresá 4 números": type the residual sum, with a decimal comma.
            fields = page.locator(".widget-text input")
            expect(fields).to_have_count(4)
            results = page.locator(".ln-result")
            expect(results.first).to_contain_text("media μ")  # the widget rendered
            for field, value in zip(fields.all(), ["0,8", "0.95", "0.93", "1.33"]):
                field.fill(value)
            expect(results.first).to_contain_text("media μ = 1.0025 · varianza σ² = 0.0391 · desvío σ = 0.198")
            expect(results.first).to_contain_text("[-1.024, -0.266, -0.367, 1.657]")
            fields.nth(1).fill("hola")
            expect(page.locator(".ln-error")).to_contain_text("no es un número")
            fields.nth(1).fill("0.95")
            expect(page.locator(".ln-error")).to_have_count(0)
            widgets = page.locator(".jp-OutputArea-output .widget-vbox").filter(has=page.locator(".ln-result"))
            widgets.first.screenshot(path=str(ARTIFACTS / "1_cuatro_numeros.png"))

            # 2. γ₀ slider: the notebook left γ = [1.2, 0.8, 1, 1.1]; eight steps right → 2.0.
            handle = page.locator(".widget-hslider").first.locator(".noUi-handle, .ui-slider-handle").first
            handle.focus()
            for _ in range(8):
                handle.press("ArrowRight")
            gamma_beta = results.nth(1)
            expect(gamma_beta).to_contain_text("[-1.949, -0.212, -0.567, 2.122]")  # 2.0 · -1.024 + 0.1
            widgets.nth(1).screenshot(path=str(ARTIFACTS / "2_gamma_beta.png"))

            # 3. "Siguiente paso": three clicks from step 1 → step 4, the mean.
            button = page.get_by_role("button", name="Siguiente paso")
            for _ in range(3):
                button.click()
            counter = page.locator(".ln-counter")
            expect(counter).to_contain_text("paso 4 de 7")
            expect(page.locator(".ln-step").nth(3)).to_contain_text("= 1.0025")
            page.locator(".jp-OutputArea-output .widget-vbox").filter(has=counter).first.screenshot(
                path=str(ARTIFACTS / "3_siguiente_paso.png"))
        finally:
            page.screenshot(path=str(ARTIFACTS / "0_jupyterlab.png"), full_page=False)
            browser.close()
