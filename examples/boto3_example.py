"""Create an S3 bucket, wait until it exists, delete it, wait until it is gone.

The waiters are generated from the S3 model; the client is a plain boto3 client:

    generate-waiters ../shared/models/api-models-aws/s3-2006-03-01.json -o build/s3_waiters
    PYTHONPATH=build python examples/boto3_example.py my-bucket-name

It talks to whatever boto3 is configured for. To try it on moto's server instead
of AWS, start `moto_server -p 5000` and set AWS_ENDPOINT_URL=http://127.0.0.1:5000
(with any AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_DEFAULT_REGION).
"""

from __future__ import annotations

import sys

import boto3
from s3_waiters import BucketExistsWaiter, BucketNotExistsWaiter

from waitable import WaiterError


def main(bucket: str) -> int:
    """Run the example on `bucket`; 0 on success, 1 if a waiter gave up."""
    s3 = boto3.client("s3")
    try:
        s3.create_bucket(Bucket=bucket)
        result = BucketExistsWaiter(s3).wait({"Bucket": bucket}, max_wait_time=120)
        print(f"{bucket} exists ({result.attempts} attempt(s), {result.elapsed:.1f}s)")

        s3.delete_bucket(Bucket=bucket)
        result = BucketNotExistsWaiter(s3).wait({"Bucket": bucket}, max_wait_time=120)
        print(f"{bucket} is gone ({result.attempts} attempt(s), {result.elapsed:.1f}s)")
    except WaiterError as error:
        # Says which waiter, how many attempts, what it saw last, and what to do.
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/boto3_example.py BUCKET_NAME")
    sys.exit(main(sys.argv[1]))
