"""The README's pictures are what the commands in docs/scripting.md make, byte for byte."""

import os
import re
import shlex
import xml.etree.ElementTree as ET

import ryg
from tests.tools.pictures import SVG

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
SCRIPTING = os.path.join(ROOT, "docs", "scripting.md")
COMMAND = re.compile(r"^ryg (.*--screenshot (docs/\S+\.svg).*)$", re.M)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def readme():
    return read(README)


def picture_commands():
    """[(argv, committed picture path)] from docs/scripting.md's command lines that write a picture."""
    return [(shlex.split(match.group(1)), match.group(2)) for match in COMMAND.finditer(read(SCRIPTING))]


def test_the_readme_shows_the_two_pictures_its_commands_make_ryg3en_first():
    text = readme()
    head = text[:text.index("\n## ")]
    shown = re.findall(r"!\[[^\]]+\]\((docs/[^)]+\.svg)\)", text)
    made = [path for _, path in picture_commands()]
    assert len(made) == 2 and shown == made
    assert re.findall(r"!\[[^\]]+\]\((docs/[^)]+\.svg)\)", head) == made[:1]    # the game in English opens it
    assert [argv[-1] for argv, _ in picture_commands()] == ["ryg3en", "ryg23"]     # English, and a classic


def test_the_commands_make_the_committed_pictures(tmp_path, capsys):
    for argv, path in picture_commands():
        made = tmp_path / os.path.basename(path)
        argv = [str(made) if word == path else word for word in argv]
        assert "--seed" in argv and "--headless" in argv           # deterministic: fixed SID seed and keys
        assert ryg.main(argv) == 0
        with open(os.path.join(ROOT, path), "rb") as handle:
            committed = handle.read()
        assert made.read_bytes() == committed, "%s is not what the README's command makes (run it again and commit the picture)" % path


def test_the_pictures_are_drawn_in_pixels_with_the_screens_text_in_them():
    for _, path in picture_commands():
        root = ET.parse(os.path.join(ROOT, path)).getroot()
        assert root.findall(".//" + SVG + "text") == [] and root.findall(SVG + "path")
        assert "MOVE" in root.find(SVG + "desc").text or "JUGADA" in root.find(SVG + "desc").text
