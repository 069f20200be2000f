"""Tests of waiters against real clients (boto3, aiobotocore, smithy-python shape) and moto."""
