"""The plan: which waiters go where, TypedDicts, names, errors, and bad traits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from waitable_codegen.errors import GenerationError, UsageError
from waitable_codegen.model import Model, load_sources, load_text
from waitable_codegen.plan import GenerationPlan, TypedDictPlan, plan_generation

from .helpers import smithy_model, status_waiter, thing_shapes, waiter_operation


def model_of(shapes: dict[str, Any]) -> Model:
    return load_text(json.dumps(smithy_model(shapes)), "m.json")


def plan_of(shapes: dict[str, Any], **options: Any) -> GenerationPlan:
    return plan_generation(
        model_of(shapes), ["m.json"], jmespath="interpreted", **options
    )


def typed_dict(plan: GenerationPlan, name: str) -> TypedDictPlan:
    (found,) = [t for t in plan.packages[0].typed_dicts if t.class_name == name]
    return found


def service(name: str, operations: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "type": "service",
        "version": "1",
        "operations": [{"target": op} for op in operations],
        **extra,
    }


def test_a_model_without_a_service_plans_every_waitable_operation() -> None:
    plan = plan_of(thing_shapes(ThingDone=status_waiter(), ThingGone=status_waiter()))
    (package,) = plan.packages
    assert package.path == () and package.service_id is None
    assert [w.name for w in package.waiters] == ["ThingDone", "ThingGone"]
    assert package.class_names == (
        "AsyncThingDoneWaiter",
        "AsyncThingGoneWaiter",
        "ThingDoneWaiter",
        "ThingGoneWaiter",
    )
    assert plan.root_docstring_source is None


def test_a_waiter_plan_carries_the_trait_values_as_literals() -> None:
    waiter = status_waiter(
        'a "quoted" value',
        documentation="Docs with `code`.",
        minDelay=5,
        maxDelay=60,
        deprecated=True,
        tags=["slow", "beta"],
    )
    (plan_waiter,) = plan_of(thing_shapes(Thing=waiter)).packages[0].waiters
    assert plan_waiter.operation_method_source == '"get_thing"'
    assert (plan_waiter.min_delay, plan_waiter.max_delay) == (5, 60)
    assert plan_waiter.deprecated
    assert (
        plan_waiter.tags_source
        == '    tags=(\n        "slow",\n        "beta",\n    ),'
    )
    (acceptor,) = plan_waiter.acceptors
    assert acceptor.state == "SUCCESS"
    assert acceptor.matcher.kind == "output"
    # quoted as black quotes it: fewer escapes in single quotes
    assert acceptor.matcher.expected_source == "'a \"quoted\" value'"
    assert acceptor.matcher.comparator == "STRING_EQUALS"
    assert acceptor.matcher.search is None, "interpreted: the runtime compiles"
    assert "Deprecated" in plan_waiter.docstring_source
    assert "Tags: slow, beta." in plan_waiter.docstring_source


def test_compiled_mode_emits_one_function_per_distinct_expression() -> None:
    shapes = thing_shapes(A=status_waiter("x"), B=status_waiter("y"))
    plan = plan_generation(model_of(shapes), ["m.json"], jmespath="compiled")
    (function,) = plan.packages[0].functions
    assert function.expression == "status"
    assert function.source.startswith(f"def {function.name}(value: Any) -> Any:")
    searches = {w.acceptors[0].matcher.search for w in plan.packages[0].waiters}
    assert searches == {function.name}


def test_typed_dicts_follow_required_optional_and_member_types() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThingOutput"]["members"] = {
        "status": {"target": "smithy.api#String"},
        "when": {
            "target": "smithy.api#Timestamp",
            "traits": {"smithy.api#required": {}},
        },
        "data": {"target": "smithy.api#Blob"},
        "count": {"target": "smithy.api#Long"},
        "ratio": {"target": "smithy.api#Double"},
        "big": {"target": "smithy.api#BigDecimal"},
        "doc": {"target": "smithy.api#Document"},
        "tags": {"target": "smithy.example#Tags"},
        "items": {"target": "smithy.example#Items"},
        "choice": {"target": "smithy.example#Choice"},
        "loose": {
            "target": "smithy.api#String",
            "traits": {"smithy.api#required": {}, "smithy.api#clientOptional": {}},
        },
    }
    shapes["smithy.example#Tags"] = {
        "type": "map",
        "key": {"target": "smithy.api#String"},
        "value": {"target": "smithy.api#String"},
        "traits": {"smithy.api#sparse": {}},
    }
    shapes["smithy.example#Items"] = {
        "type": "list",
        "member": {"target": "smithy.example#GetThingOutput"},
    }
    shapes["smithy.example#Choice"] = {
        "type": "union",
        "members": {
            "a": {"target": "smithy.api#String"},
            "b": {"target": "smithy.api#Integer"},
        },
    }
    plan = plan_of(shapes)
    output = typed_dict(plan, "GetThingOutput")
    assert not output.functional
    fields = {f.name: (f.annotation_source, f.required) for f in output.fields}
    assert fields == {
        "status": ("str", False),
        "when": ("_datetime.datetime", True),
        "data": ("bytes", False),
        "count": ("int", False),
        "ratio": ("float", False),
        "big": ("_decimal.Decimal", False),
        "doc": ("_t.Any", False),
        "tags": ("dict[str, str | None]", False),
        # naming a class of the module: a string (the module evaluates annotations)
        "items": ('"list[GetThingOutput]"', False),
        "choice": ('"Choice"', False),
        "loose": ("str", False),
    }
    assert all(not f.required for f in typed_dict(plan, "Choice").fields)
    assert plan.packages[0].needs_datetime and plan.packages[0].needs_decimal


def test_a_required_idempotency_token_is_not_a_required_key() -> None:
    """boto3 (and every AWS SDK) fills the token in when the caller leaves it out."""
    shapes = thing_shapes()
    shapes["smithy.example#GetThingInput"]["members"]["token"] = {
        "target": "smithy.api#String",
        "traits": {"smithy.api#required": {}, "smithy.api#idempotencyToken": {}},
    }
    fields = typed_dict(plan_of(shapes), "GetThingInput").fields
    assert {f.name: f.required for f in fields} == {"name": True, "token": False}


def test_a_required_idempotency_token_of_an_output_stays_required() -> None:
    """Clients fill the token in only in what they send; an output's required
    member is one the service always returns."""
    shapes = thing_shapes()
    shapes["smithy.example#GetThingOutput"]["members"]["token"] = {
        "target": "smithy.api#String",
        "traits": {"smithy.api#required": {}, "smithy.api#idempotencyToken": {}},
    }
    fields = typed_dict(plan_of(shapes), "GetThingOutput").fields
    assert {f.name: f.required for f in fields} == {"status": False, "token": True}


def test_input_timestamps_also_take_text_and_output_ones_stay_datetimes() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThingInput"]["members"] = {
        "name": {"target": "smithy.api#String"},
        "since": {"target": "smithy.api#Timestamp"},
        "times": {"target": "smithy.example#Times"},
        "window": {"target": "smithy.example#Window"},
    }
    shapes["smithy.example#Times"] = {
        "type": "list",
        "member": {"target": "smithy.api#Timestamp"},
    }
    shapes["smithy.example#Window"] = {
        "type": "structure",
        "members": {"start": {"target": "smithy.api#Timestamp"}},
    }
    shapes["smithy.example#GetThingOutput"]["members"] = {
        "when": {"target": "smithy.api#Timestamp"},
        "times": {"target": "smithy.example#Times"},
    }
    plan = plan_of(shapes)

    def annotations(name: str) -> dict[str, str]:
        return {f.name: f.annotation_source for f in typed_dict(plan, name).fields}

    text = "_datetime.datetime | str"
    assert annotations("GetThingInput") == {
        "name": "str",
        "since": text,
        "times": f"list[{text}]",
        "window": '"Window"',
    }
    assert annotations("Window") == {"start": text}
    assert annotations("GetThingOutput") == {
        "when": "_datetime.datetime",
        "times": "list[_datetime.datetime]",
    }


def test_keyword_and_private_member_names_use_the_functional_form() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThingOutput"]["members"] = {
        "from": {"target": "smithy.api#String"},
        "__secret": {
            "target": "smithy.api#String",
            "traits": {"smithy.api#required": {}},
        },
    }
    output = typed_dict(plan_of(shapes), "GetThingOutput")
    assert output.functional
    assert [f.line_source for f in output.fields] == [
        '        "from": _t.NotRequired["str"],',
        '        "__secret": "str",',
    ]


def test_missing_inputs_and_outputs_get_empty_typed_dicts() -> None:
    shapes = {
        "smithy.example#Ping": waiter_operation(
            {
                "Pinged": {
                    "acceptors": [{"state": "success", "matcher": {"success": True}}]
                }
            },
            input=None,
            output="smithy.api#Unit",
        )
    }
    plan = plan_of(shapes)
    (waiter,) = plan.packages[0].waiters
    assert (waiter.input_type, waiter.output_type) == ("PingInput", "PingOutput")
    assert typed_dict(plan, "PingInput").fields == ()


def test_several_services_get_one_subpackage_each_named_from_the_sdk_id() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#Other"] = waiter_operation({"OtherDone": status_waiter()})
    shapes["smithy.example#ThingService"] = service(
        "ThingService",
        ["smithy.example#GetThing"],
        traits={"aws.api#service": {"sdkId": "Thing Store"}},
    )
    shapes["smithy.example#OtherService"] = service(
        "OtherService", ["smithy.example#Other"]
    )
    shapes["smithy.example#Idle"] = service("Idle", [])
    plan = plan_of(shapes)
    assert [p.path for p in plan.packages] == [("other_service",), ("thing_store",)]
    assert plan.root_docstring_source is not None
    only = plan_of(shapes, service="smithy.example#ThingService")
    assert [p.path for p in only.packages] == [()]
    assert [w.name for w in only.packages[0].waiters] == ["ThingDone"]
    assert plan_of(shapes, service="smithy.example#Idle").packages == ()


def test_a_single_service_generates_only_its_closure() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#Stray"] = waiter_operation({"Stray": status_waiter()})
    shapes["smithy.example#S"] = service("S", ["smithy.example#GetThing"])
    (package,) = plan_of(shapes).packages
    assert package.path == () and package.service_id == "smithy.example#S"
    assert [w.name for w in package.waiters] == ["ThingDone"]


def test_an_unknown_service_is_a_usage_error_listing_the_services() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#S"] = service("S", ["smithy.example#GetThing"])
    with pytest.raises(UsageError, match=r"--service ns#Nope: .*smithy.example#S"):
        plan_of(shapes, service="ns#Nope")


def test_modeled_errors_carry_their_http_status_and_the_service_errors() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThing"]["errors"] = [
        {"target": "smithy.example#NotFound"}
    ]
    shapes["smithy.example#NotFound"] = {
        "type": "structure",
        "members": {},
        "traits": {"smithy.api#error": "client", "smithy.api#httpError": 404},
    }
    shapes["smithy.example#Throttled"] = {
        "type": "structure",
        "members": {},
        "traits": {"smithy.api#error": "client"},
    }
    shapes["smithy.example#S"] = service(
        "S",
        ["smithy.example#GetThing"],
        errors=[{"target": "smithy.example#Throttled"}],
    )
    (waiter,) = plan_of(shapes).packages[0].waiters
    assert [(e.name_source, e.http_status) for e in waiter.errors] == [
        ('"NotFound"', 404),
        ('"Throttled"', None),
    ]


def test_shape_names_clashing_across_namespaces_are_told_apart() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThingOutput"]["members"]["detail"] = {
        "target": "other.ns#GetThingOutput"
    }
    shapes["other.ns#GetThingOutput"] = {"type": "structure", "members": {}}
    shapes["smithy.example#S"] = service("S", ["smithy.example#GetThing"])
    names = {t.shape_id: t.class_name for t in plan_of(shapes).packages[0].typed_dicts}
    assert names["smithy.example#GetThingOutput"] == "GetThingOutput"
    assert names["other.ns#GetThingOutput"] == "NsGetThingOutput"
    shapes["smithy.example#S"]["rename"] = {"other.ns#GetThingOutput": "Detail"}
    names = {t.shape_id: t.class_name for t in plan_of(shapes).packages[0].typed_dicts}
    assert names["other.ns#GetThingOutput"] == "Detail"


def test_recursive_shapes_are_planned_once() -> None:
    shapes = thing_shapes()
    shapes["smithy.example#GetThingOutput"]["members"]["child"] = {
        "target": "smithy.example#GetThingOutput"
    }
    output = typed_dict(plan_of(shapes), "GetThingOutput")
    assert ("child", '"GetThingOutput"') in {
        (f.name, f.annotation_source) for f in output.fields
    }


def test_two_waiters_that_would_share_a_class_are_an_error() -> None:
    shapes = thing_shapes(ThingDone=status_waiter())
    shapes["smithy.example#Other"] = waiter_operation({"ThingDone": status_waiter()})
    with pytest.raises(GenerationError, match="would both be generated as class"):
        plan_of(shapes)


@pytest.mark.parametrize(
    ("waiter", "message"),
    [
        ({"acceptors": []}, '"acceptors" must be a non-empty list'),
        (
            {"acceptors": [{"state": "done", "matcher": {"success": True}}]},
            "acceptor 0: \"state\" must be one of success, failure, retry, not 'done'",
        ),
        (
            {
                "acceptors": [
                    {"state": "success", "matcher": {"success": True, "errorType": "X"}}
                ]
            },
            'acceptor 0: "matcher" must be an object with exactly one of',
        ),
        (
            {"acceptors": [{"state": "success", "matcher": {"output": {"path": "a"}}}]},
            'the "output" matcher needs a string "expected"',
        ),
        (
            {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "a",
                                "expected": "b",
                                "comparator": "equals",
                            }
                        },
                    }
                ]
            },
            "unknown comparator 'equals'",
        ),
        ({**status_waiter(), "minDelay": 0}, '"minDelay" must be at least 1'),
        ({**status_waiter(), "maxDelay": "5"}, '"maxDelay" must be a int'),
        ({**status_waiter(), "tags": [1]}, '"tags" must be a list of strings'),
    ],
)
def test_a_malformed_trait_names_file_operation_waiter_and_acceptor(
    waiter: dict[str, Any], message: str
) -> None:
    with pytest.raises(GenerationError) as caught:
        plan_of(thing_shapes(Broken=waiter))
    text = str(caught.value)
    assert text.startswith("m.json: smithy.example#GetThing, waiter Broken")
    assert message in text


def test_a_bad_waiter_name_and_a_trait_on_a_structure_are_errors() -> None:
    with pytest.raises(GenerationError, match="UpperCamelCase"):
        plan_of(thing_shapes(**{"not-a-name": status_waiter()}))
    shapes = thing_shapes()
    shapes["smithy.example#GetThingInput"]["traits"] = {
        "smithy.waiters#waitable": {"X": status_waiter()}
    }
    with pytest.raises(
        GenerationError, match="is a structure, but .* applies only to operations"
    ):
        plan_of(shapes)


def test_the_header_names_the_model_files_and_escapes_them() -> None:
    model = load_sources(
        [("dir/evil\nname.json", json.dumps(smithy_model(thing_shapes())))]
    )
    plan = plan_generation(model, ["a.json", "evil\nname.json"], jmespath="interpreted")
    (package,) = plan.packages
    for lines in (plan.header_lines, package.header_lines):
        assert lines[0].startswith("# Generated by generate-waiters.")
        assert lines[1].startswith("# generate-waiters ")
        assert lines[2:] == ("# From: evil\\nname.json",), "only the waiters' file"


def service_file(service_name: str, operation: str) -> str:
    shapes = thing_shapes()
    shapes[f"smithy.example#{operation}"] = shapes.pop("smithy.example#GetThing")
    shapes[f"smithy.example#{service_name}"] = service(
        service_name, [f"smithy.example#{operation}"]
    )
    return json.dumps(smithy_model(shapes))


def test_each_package_header_names_only_the_files_its_waiters_came_from() -> None:
    """The issue: every file's `# From:` listed every input (48% of generated
    lines on 402 AWS models); now a package names its own service's files."""
    unrelated = json.dumps(smithy_model({"other#Thing": {"type": "string"}}))
    sources = ["first.json", "unrelated.json", "second.json"]
    model = load_sources(
        [
            ("models/first.json", service_file("First", "GetFirst")),
            ("models/unrelated.json", unrelated),
            ("models/second.json", service_file("Second", "GetSecond")),
        ]
    )
    plan = plan_generation(model, sources, jmespath="interpreted")
    headers = {package.path: package.header_lines[2:] for package in plan.packages}
    assert headers == {
        ("first",): ("# From: first.json",),
        ("second",): ("# From: second.json",),
    }
    assert plan.header_lines[2:] == ("# From: first.json, second.json",)


def test_a_long_header_wraps_and_each_line_is_one_comment() -> None:
    names = [f"model-{index:02d}-{'x' * 20}.json" for index in range(6)]
    texts = [(name, service_file(f"S{i}", f"Get{i}")) for i, name in enumerate(names)]
    plan = plan_generation(load_sources(texts), names, jmespath="interpreted")
    lines = plan.header_lines
    assert len(lines) > 2 and all(len(line) <= 88 for line in lines)
    assert all(line.startswith("#") and "\n" not in line for line in lines)
    listed = " ".join(line[7:] for line in lines[2:]).replace(",", " ").split()
    assert listed == names
