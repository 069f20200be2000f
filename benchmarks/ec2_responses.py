"""EC2 DescribeInstances responses as botocore parses them, shared by the benchmarks.

InstanceRunning (`Reservations[].Instances[].State.Name`) is the acceptor set both
`bench_jmespath.py` and `bench_poll.py` measure, on the same data.
"""

from __future__ import annotations

import datetime
import random
from typing import Any


def _instance(rng: random.Random, number: int, state: str) -> dict[str, Any]:
    """One instance as botocore parses it (``datetime`` timestamps included)."""
    launched = datetime.datetime(2025, 4, 2, 12, 0, tzinfo=datetime.timezone.utc)
    subnet = f"subnet-{rng.randrange(16**8):08x}"
    ip = f"10.0.{number // 250}.{number % 250 + 2}"
    return {
        "AmiLaunchIndex": 0,
        "ImageId": "ami-0abcdef1234567890",
        "InstanceId": f"i-{number:017x}",
        "InstanceType": rng.choice(["t3.micro", "m5.large", "c6g.xlarge"]),
        "LaunchTime": launched,
        "Monitoring": {"State": "disabled"},
        "Placement": {
            "AvailabilityZone": "us-east-1a",
            "GroupName": "",
            "Tenancy": "default",
        },
        "PrivateDnsName": f"ip-{ip.replace('.', '-')}.ec2.internal",
        "PrivateIpAddress": ip,
        "ProductCodes": [],
        "PublicDnsName": "",
        "State": {"Code": 16 if state == "running" else 0, "Name": state},
        "StateTransitionReason": "",
        "SubnetId": subnet,
        "VpcId": "vpc-0123456789abcdef0",
        "Architecture": "x86_64",
        "BlockDeviceMappings": [
            {
                "DeviceName": "/dev/xvda",
                "Ebs": {
                    "AttachTime": launched,
                    "DeleteOnTermination": True,
                    "Status": "attaching",
                    "VolumeId": f"vol-{number:017x}",
                },
            }
        ],
        "ClientToken": f"token-{number}",
        "EbsOptimized": False,
        "EnaSupport": True,
        "Hypervisor": "xen",
        "NetworkInterfaces": [
            {
                "Attachment": {
                    "AttachTime": launched,
                    "DeviceIndex": 0,
                    "Status": "attaching",
                },
                "Description": "",
                "Groups": [{"GroupName": "default", "GroupId": "sg-0123456789abcdef0"}],
                "MacAddress": "0a:00:00:00:00:01",
                "NetworkInterfaceId": f"eni-{number:017x}",
                "PrivateIpAddress": ip,
                "SubnetId": subnet,
                "Status": "in-use",
            }
        ],
        "RootDeviceName": "/dev/xvda",
        "RootDeviceType": "ebs",
        "SecurityGroups": [{"GroupName": "default", "GroupId": "sg-0123456789abcdef0"}],
        "SourceDestCheck": True,
        "Tags": [{"Key": "Name", "Value": f"worker-{number}"}],
        "VirtualizationType": "hvm",
        "CpuOptions": {"CoreCount": 1, "ThreadsPerCore": 2},
        "MetadataOptions": {"State": "pending", "HttpTokens": "required"},
    }


def describe_instances(
    count: int, state: str = "pending", seed: int = 5
) -> dict[str, Any]:
    """A ``DescribeInstances`` response: ``count`` instances, all in ``state``, in
    reservations of 1-3."""
    rng = random.Random(seed)
    reservations = []
    made = 0
    while made < count:
        size = min(rng.randint(1, 3), count - made)
        instances = [_instance(rng, made + offset, state) for offset in range(size)]
        reservations.append(
            {
                "Groups": [],
                "Instances": instances,
                "OwnerId": "123456789012",
                "ReservationId": f"r-{made:017x}",
            }
        )
        made += size
    return {
        "Reservations": reservations,
        "ResponseMetadata": {"RequestId": "0", "HTTPStatusCode": 200},
    }
