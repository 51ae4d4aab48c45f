"""poppler helpers for export tests: page count, text, word boxes (skip when not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest


def need(tool: str) -> str:
    exe = shutil.which(tool)
    if exe is None:
        pytest.skip(f"{tool} not installed (apt-get install -y poppler-utils)")
    return exe


def page_count(pdf: Path) -> int:
    out = subprocess.run([need("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    m = re.search(r"^Pages:\s+(\d+)", out, re.M)
    assert m, out
    return int(m.group(1))


def text(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    cmd = [need("pdftotext"), "-layout"]
    if first:
        cmd += ["-f", str(first)]
    if last:
        cmd += ["-l", str(last)]
    out = subprocess.run(cmd + [str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return unicodedata.normalize("NFKC", out)  # fold ligatures (ﬁ → fi)


def words(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """(word, xmin, ymin, xmax, ymax) in PDF points on one page."""
    out = subprocess.run([need("pdftotext"), "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    pat = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    return [(m.group(5), float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)))
            for m in pat.finditer(out)]


def page_width(pdf: Path, page: int = 1) -> float:
    out = subprocess.run([need("pdftotext"), "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r'<page width="([\d.]+)"', out)
    assert m
    return float(m.group(1))


def render_pages(pdf: Path, out_dir: Path, dpi: int = 20) -> list[Path]:
    subprocess.run([need("pdftoppm"), "-r", str(dpi), "-png", str(pdf), str(out_dir / "page")], check=True)
    return sorted(out_dir.glob("page-*.png"))
