"""Project-wide guards: imports run one way, and the README's rules cannot drift."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.pattern_table import pattern_table_markdown

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"engine": {"storage", "bot", "telegram", "sqlalchemy"}, "storage": {"bot", "telegram"}}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_imports_run_one_way() -> None:
    for package, banned in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = _imports(path) & banned
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_readme_pattern_table_is_generated_from_the_definitions() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert pattern_table_markdown("chengdu") in readme
