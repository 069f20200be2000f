"""`waitable wait`: wait for an AWS resource from a shell script or CI job.

The waiters come from botocore's data, a generated package or a Smithy model;
the input is given as AWS CLI-style options; exit codes tell the outcomes apart.
"""

from .exit_codes import ExitCode

__all__ = ["ExitCode"]
