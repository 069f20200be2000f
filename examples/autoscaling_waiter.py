"""Seed 003's Auto Scaling waiter: wait until every group has MinSize instances in Pending:Wait.

Instances held by a launch lifecycle hook sit in `Pending:Wait`. The waiter
asks DescribeAutoScalingGroups and succeeds once, in every group, at least
`MinSize` instances are in that state. Seed 003 writes the test as

    contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='Pending:Wait']) >= MinSize][], 'false')

but `'false'` is a string and the list holds booleans; JMESPath equality never
makes a boolean equal a string, so that expression is false on every response
(`SEED_003_EXPRESSION`, kept to show it). `GROUP_SHORT_OF_PENDING_WAIT` compares
with the JSON literal `` `false` `` instead: true while some group is short.

    import boto3
    waiter = GroupsInPendingWait(boto3.client("autoscaling"))
    waiter.wait({"AutoScalingGroupNames": ["web"]}, max_wait_time=600)
"""

from __future__ import annotations

from waitable.custom import custom_waiter, path, retry, success

__all__ = [
    "GROUP_SHORT_OF_PENDING_WAIT",
    "GroupsInPendingWait",
    "NO_GROUPS",
    "SEED_003_EXPRESSION",
]

#: Seed 003's expression, as written: a constant false (see the module docstring).
SEED_003_EXPRESSION = (
    "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='Pending:Wait'])"
    " >= MinSize][], 'false')"
)

#: True while some group has fewer than MinSize instances in Pending:Wait.
GROUP_SHORT_OF_PENDING_WAIT = (
    "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='Pending:Wait'])"
    " >= MinSize][], `false`)"
)

#: True when the response names no group (not created yet, or a typo).
NO_GROUPS = "length(AutoScalingGroups) == `0`"

GroupsInPendingWait = custom_waiter(
    "GroupsInPendingWait",
    acceptors=[
        retry(path(NO_GROUPS) == True),  # noqa: E712 (a booleanEquals matcher)
        success(path(GROUP_SHORT_OF_PENDING_WAIT) == False),  # noqa: E712
    ],
    operation_method="describe_auto_scaling_groups",
    min_delay=15,
    max_delay=120,
    documentation=(
        "Wait until every Auto Scaling group has MinSize instances in Pending:Wait."
    ),
)
