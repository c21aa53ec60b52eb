"""The house's map stays true (issue 33): the README is short, its Layout
names every folder of the repository, docs/layout.md names every module, and
every path either names exists."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def paths_named(text):
    # `folder/file.ext` and `folder/` in backticks.
    return set(re.findall(r"`((?:[\w.-]+/)+(?:[\w.*-]+)?)`", text))


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_readme_is_for_players_and_makers_and_short():
    readme = read("README.md")
    assert len(readme.splitlines()) <= 200
    for doc in re.findall(r"\]\((docs/[\w.]+)\)", readme):
        assert os.path.isfile(os.path.join(ROOT, doc)), doc


def test_the_readme_layout_names_every_folder():
    readme = read("README.md")
    layout = readme[readme.index("## Layout") :].split("\n## ")[0]
    folders = {p.split("/")[0] for p in tracked() if "/" in p and not p.startswith(".")}
    named = {p.rstrip("/") for p in paths_named(layout)}
    assert folders - {"lib"} <= named, sorted(folders - named)
    assert "lib" in named  # (filled on the drive only: nothing is committed there)


def test_docs_layout_names_every_module():
    layout = read("docs/layout.md")
    files = [p for p in tracked() if p.split("/")[0] in ("engine", "hardware", "desktop", "tools")]
    modules = [p for p in files if p.endswith((".py", ".mjs")) and "/screenshots/" not in p]
    missing = [p for p in modules if "`%s`" % p not in layout]
    assert not missing, missing


def test_every_path_the_map_names_exists():
    for rel in ("README.md", "docs/layout.md"):
        for path in paths_named(read(rel)):
            if "*" in path or path.startswith("shared/"):
                continue  # a pattern; the team's shared folder beside the repository
            assert os.path.exists(os.path.join(ROOT, path)), "%s names %s" % (rel, path)


def test_every_link_of_the_docs_resolves():
    folder = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(folder)):
        text = read("docs/" + name)
        for link in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in link:
                assert os.path.exists(os.path.join(folder, link)), "docs/%s links %s" % (name, link)
