"""A Celery app whose workers import waiter and client names only from the
`fake_service` module (`install(app, import_from=("fake_service",))`), with
`wait_app`'s settings, `on_done` bodies and ready marker; a producer of `wait_app`
(installed without `import_from`) stands for whoever can write to the broker."""

from __future__ import annotations

from celery import Celery

import wait_app
from waitable.celery import install

app = Celery("trusted_app", broker=wait_app.URL)
app.conf.update(wait_app.SETTINGS)
install(app, **wait_app.INSTALL, import_from=("fake_service",))

record_outcome = wait_app.record_outcome
