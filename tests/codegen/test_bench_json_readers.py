"""The JSON-reader benchmark compares like with like: generation's text reader
keeps exactly the shapes the json way keeps, in the same documents."""

from __future__ import annotations

from waitable_codegen.model.reachable_text import with_unread_decoded

from .helpers import AWS_MODELS, benchmark_module

bench = benchmark_module("bench_json_readers")


def test_both_readers_make_the_same_cut_of_every_aws_model() -> None:
    datas = [path.read_bytes() for path in sorted(AWS_MODELS.glob("*.json"))]
    by_json = bench.with_json(datas)
    assert by_json == with_unread_decoded(bench.with_text(datas))
    kept = sum(len(document["shapes"]) for document in by_json)
    assert 0 < kept < sum(data.count(b'"type"') for data in datas)


def test_the_cut_keeps_bound_operations_without_waiters_bare() -> None:
    datas = [(AWS_MODELS / "dynamodb-2012-08-10.json").read_bytes()]
    shapes = bench.with_text(datas)[0]["shapes"]
    bare = [body for body in shapes.values() if body == {"type": "operation"}]
    assert bare, "DynamoDB's service binds operations that have no waiter"
    assert shapes["com.amazonaws.dynamodb#DescribeTable"]["type"] == "operation"
    assert "traits" in shapes["com.amazonaws.dynamodb#DescribeTable"]
