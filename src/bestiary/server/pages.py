"""The server's HTML pages, each sent with a Content-Security-Policy.

Seat tokens live in this origin's localStorage: a script from anywhere else running on one of
its pages could read every one. So each page says where scripts may come from: this origin
and, for the few inline scripts a page holds (the client's import map), their own hashes, worked
out from the page itself so that editing the page can never silently widen the policy.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.responses import HTMLResponse

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", re.DOTALL)

# The API's reference page (``--api-docs``) loads Swagger UI from this CDN at this version.
SWAGGER_CDN = "https://cdn.jsdelivr.net"
SWAGGER_VERSION = "5.17.14"


def policy(html: str, scripts_from: str = "") -> str:
    """The Content-Security-Policy for a page: scripts, styles, images and connections from
    this origin only (plus ``scripts_from`` for scripts and styles), the page's inline scripts
    by hash, no plugins, no framing, no foreign form targets or base URL."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(html)
    )
    extra = f" {scripts_from}" if scripts_from else ""
    return (
        f"default-src 'self'; script-src 'self'{extra} {hashes}".rstrip() + "; "
        f"style-src 'self'{extra}; img-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def page(html: str, scripts_from: str = "") -> HTMLResponse:
    """``html`` sent with its policy (and never sniffed as anything else)."""
    return HTMLResponse(
        html,
        headers={
            "Content-Security-Policy": policy(html, scripts_from),
            "X-Content-Type-Options": "nosniff",
        },
    )
