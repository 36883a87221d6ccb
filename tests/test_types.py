"""The type checker (mypy, configured in pyproject.toml, as `make typecheck` runs it),
inside the suite: `make test` runs it beside the other tests rather than before them."""

from __future__ import annotations

import pytest
from mypy import api


def test_the_code_type_checks(request: pytest.FixtureRequest,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(request.config.rootpath)
    out, err, status = api.run([])
    assert status == 0, out + err
