"""The house's map stays true: the README is short, its Layout
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
            if "*" in path:
                continue  # a pattern
            assert os.path.exists(os.path.join(ROOT, path)), "%s names %s" % (rel, path)


def test_every_link_of_the_docs_resolves():
    folder = os.path.join(ROOT, "docs")
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".md")):
        text = read("docs/" + name)
        for link in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in link:
                assert os.path.exists(os.path.join(folder, link)), "docs/%s links %s" % (name, link)


RULE_ID = re.compile(r"\b(SP|V|SD|D)-([0-9]+)([ab]?)\b")


def repository_text():
    # (path, text) of every tracked text file a reader or the code has.
    for rel in tracked():
        if rel.endswith((".py", ".md", ".mjs", ".txt", ".toml", ".json")) or rel in ("Makefile", ".ci/run"):
            yield rel, read(rel)


def test_every_rule_id_the_repository_cites_is_in_docs_rules():
    rules = read("docs/rules.md")
    defined = {m.group(0) for m in re.finditer(r"\*\*((?:SP|V|SD|D)-[0-9]+b?)\*\*|\| (D-[0-9]+) \|", rules)}
    defined = {d.strip("*| ") for d in defined}
    cited = {}
    for rel, text in repository_text():
        for m in RULE_ID.finditer(text):
            rule = m.group(1) + "-" + m.group(2) + ("b" if m.group(3) == "b" and m.group(1) == "SD" else "")
            cited.setdefault(rule, rel)
    missing = {rule: rel for rule, rel in cited.items() if rule not in defined}
    assert not missing, missing
    assert len(defined) == 15 + 3 + 9 + 18  # SP-1..15, V-1..3, SD-1..8 with SD-2b, D-1..18


def test_nothing_in_the_repository_points_outside_it():
    # Players and contributors have this repository only: the rules it
    # cites are its own (docs/rules.md).
    outside = [rel for rel, text in repository_text() if re.search(r"\bthe team's shared\b|\bshared(?=/)", text)]
    assert not outside, outside


def test_the_docs_speak_to_todays_reader():
    # What a reader has is this repository: no tracker's numbers, no diary
    # of past work (that is what commit messages are for).
    diary = re.compile(r"\bissues? [0-9]+|\b(first|second|third|fourth|fifth|sixth|seventh|eighth) session", re.I)
    found = [
        (rel, m.group(0))
        for rel, text in repository_text()
        if rel.startswith("docs/") or rel == "README.md"
        for m in diary.finditer(text)
    ]
    assert not found, found
