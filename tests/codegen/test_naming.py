"""Python names from Smithy names: boto3's method names and safe identifiers."""

from __future__ import annotations

import builtins
import json
import keyword
import os
import re
import shutil
import subprocess
import sys

import botocore  # type: ignore[import-untyped]
import pytest
from shared_corpora import shared_path
from hypothesis import example, given
from hypothesis import strategies as st

from waitable_codegen import naming
from waitable_codegen.errors import GenerationError
from waitable_codegen.naming import (
    Identifier,
    identifier,
    is_identifier,
    module_name,
    pascal_identifier,
    snake_case,
    unique_name,
    xform_name,
)

from .helpers import corpus_files


def corpus_operation_names() -> list[str]:
    names: set[str] = set()
    for path in corpus_files():
        shapes = json.loads(path.read_text())["shapes"]
        names.update(
            shape_id.split("#")[1]
            for shape_id, body in shapes.items()
            if body["type"] == "operation"
        )
    return sorted(names)


def test_method_names_equal_botocore_for_every_operation_in_the_corpus() -> None:
    shared_path("models")
    names = corpus_operation_names()
    assert len(names) > 3000
    mismatches = [
        (name, xform_name(name), botocore.xform_name(name))
        for name in names
        if xform_name(name) != botocore.xform_name(name)
    ]
    assert mismatches == []


@pytest.mark.parametrize(
    ("operation", "method"),
    [
        ("HeadBucket", "head_bucket"),
        ("ListACLs", "list_acls"),
        ("DescribeDBInstances", "describe_db_instances"),
        ("GetBucketIpv6Config", "get_bucket_ipv6_config"),
        ("ListS3Resources", "list_s3_resources"),
        ("already_snake", "already_snake"),
    ],
)
def test_method_names_follow_boto3(operation: str, method: str) -> None:
    assert xform_name(operation) == method


@given(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,30}", fullmatch=True))
def test_method_names_equal_botocore_for_any_operation_name(name: str) -> None:
    assert xform_name(name) == botocore.xform_name(name)


any_text = st.text(max_size=40)


@given(any_text)
def test_snake_and_module_names_are_plain_lower_case_identifiers(text: str) -> None:
    for name in (snake_case(text), module_name(text)):
        assert is_identifier(name)
        assert name not in ("_", "case", "match")  # 3.11's soft keywords
        assert name == name.lower()


@given(any_text)
def test_class_names_are_identifiers_that_shadow_nothing(text: str) -> None:
    name = pascal_identifier(text)
    assert is_identifier(name)
    # `builtins`, not `__builtins__`: in an imported module that is the builtins'
    # dict, whose dir() lists dict methods (`keys` failed the test once). Python
    # 3.11's names: a newer version's (`PythonFinalizationError`) change nothing.
    assert name not in PY311_BUILTINS and name not in ("Any", "TypedDict")


@pytest.mark.parametrize(
    ("sdk_id", "module"),
    [
        ("S3", "s3"),
        ("DynamoDB", "dynamodb"),
        ("Route 53", "route_53"),
        ("ACM PCA", "acm_pca"),
    ],
)
def test_service_modules_are_named_like_boto3_services(
    sdk_id: str, module: str
) -> None:
    assert module_name(sdk_id) == module


PY311_BUILTINS = frozenset(naming._BUILTINS)


def _python_3_11_names() -> tuple[frozenset[str], frozenset[str]]:
    """`dir(builtins)` and `keyword.softkwlist` of Python 3.11: this interpreter's
    when it is 3.11, else asked of `python3.11` (the README's interpreter)."""
    if sys.version_info[:2] == (3, 11):
        return frozenset(dir(builtins)), frozenset(keyword.softkwlist)
    python = shutil.which("python3.11")
    if python is None:
        pytest.skip("python3.11 is not installed")
    environment = {k: v for k, v in os.environ.items() if k != "PYENV_VERSION"}
    asked = subprocess.run(
        [
            python,
            "-c",
            "import builtins, json, keyword; "
            "print(json.dumps([dir(builtins), keyword.softkwlist]))",
        ],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
        timeout=60,
    )
    names, soft = json.loads(asked.stdout)
    return frozenset(names), frozenset(soft)


def test_the_written_out_builtins_are_python_3_11_s() -> None:
    names, soft = _python_3_11_names()
    assert PY311_BUILTINS == names
    assert naming._SOFT_KEYWORDS == soft


def test_module_names_do_not_change_with_the_python_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python 3.12 made `type` a soft keyword: a service whose sdkId is `Type` was
    the module `type` on 3.11 and `type_` on 3.12 (review of 2026-11-28, s24)."""
    monkeypatch.setattr(keyword, "softkwlist", [*keyword.softkwlist, "type"])
    monkeypatch.setattr(
        keyword, "issoftkeyword", frozenset(keyword.softkwlist).__contains__
    )
    assert module_name("Type") == "type"
    assert module_name("Match") == "match_"


def test_class_names_do_not_change_with_the_python_version_or_site() -> None:
    """Names were checked against the running interpreter's `dir(builtins)`: a
    shape `PythonFinalizationError` (a builtin from 3.13 on) or `help` (one that
    `site` adds, missing under `python -S`) was named differently there."""
    program = (
        "import builtins; builtins.PythonFinalizationError = RuntimeError\n"
        "from waitable_codegen.naming import pascal_identifier as p\n"
        "print(p('PythonFinalizationError'), p('help'), p('str'))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", program],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=True,
    )
    assert done.stdout.split() == ["PythonFinalizationError", "Help", "Str"]


def test_names_kept_when_safe_and_changed_when_not() -> None:
    assert pascal_identifier("GetThingInput") == "GetThingInput"
    assert pascal_identifier("str") == "Str"
    assert pascal_identifier("class") == "Class"
    assert pascal_identifier("None") == "NoneShape"
    assert snake_case("BucketExists") == "bucket_exists"
    assert snake_case("Match") == "match_"


@given(st.sets(st.sampled_from(["a", "a2", "a3", "b"])))
def test_unique_name_never_returns_a_taken_name(taken: set[str]) -> None:
    name = unique_name(identifier("a"), taken)
    assert name not in taken and name.startswith("a")


def regex_xform_name(name: str) -> str:
    """The oracle: botocore's own `xform_name`, which states the first step as a
    regex that backtracks quadratically on a long run of capitals. (An oracle that
    re-entered our `xform_name` after that step was wrong: the `_` it inserts made
    the rest return early, while botocore lowers and splits the remainder.)"""
    return str(botocore.xform_name(name))


@example("_AAs")  # holds the separator: botocore returns it unchanged
@example("A9AAs")  # a plural acronym after a digit: the rest is still lowered
@example("AAs\n")  # `$` matches before a final newline; botocore cuts from the end
@given(st.text(alphabet="AZsbz9_\n-é", max_size=30))
def test_the_linear_xform_name_equals_its_regex_definition(name: str) -> None:
    assert xform_name(name) == regex_xform_name(name)


def test_names_of_100000_capitals_convert_in_one_pass() -> None:
    """The issue: a name of 100,000 capitals took 88 s (a quadratic regex). Each
    conversion here is one pass; a quadratic one would make this test take
    minutes."""
    capitals = "A" * 100_000
    assert xform_name(capitals + "s") == "_" + capitals.lower() + "s"
    assert xform_name(capitals + "x") == capitals[1:].lower() + "_ax"
    assert snake_case(capitals + "s") == capitals.lower() + "s"
    assert module_name(capitals) == capitals.lower()
    assert pascal_identifier(capitals + "-") == capitals
    assert snake_case("Ab" * 50_000) == "_".join(["ab"] * 50_000)


@given(st.text(max_size=30) | st.sampled_from(["class", "None", "x y", "é", "_t"]))
def test_identifier_admits_exactly_the_plain_ascii_non_keyword_names(
    text: str,
) -> None:
    if is_identifier(text):
        name = identifier(text)
        assert type(name) is Identifier and name == text
    else:
        with pytest.raises(GenerationError, match="internal error"):
            identifier(text)


def test_an_identifier_is_made_only_by_the_identifier_function() -> None:
    with pytest.raises(TypeError, match="identifier"):
        Identifier("os.system")
    assert type(snake_case("Bucket Exists")) is Identifier
    assert type(pascal_identifier("x(y)")) is Identifier
    assert type(module_name("Route 53")) is Identifier
    assert type(unique_name(identifier("a"), {"a"})) is Identifier
