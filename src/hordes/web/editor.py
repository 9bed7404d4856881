"""CodeMirror 6 for the workshop's editor: its ES modules as npm installed them, with no bundler.

CodeMirror's modules import each other by package name ("@codemirror/state"), which a browser
resolves only through an import map. An import map must be an inline <script type="importmap">
(browsers load no external map), and the site's CSP allows no inline script; so the map is one
fixed text, and the workshop page's own CSP allows exactly that text by its SHA-256 hash. Every
other page keeps the plain CSP, and the workshop page runs no other inline script.

Only the entry module of each package is served (the list below), never the rest of node_modules.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from hordes.web.errors import NotFound
from hordes.web.security import CSP

NODE_MODULES = Path(__file__).parent / "frontend" / "node_modules"
URL_PREFIX = "/vendor/codemirror/"

# package name -> its ES module, inside node_modules (what package.json's "exports" names)
MODULES = {
    "@codemirror/commands": "@codemirror/commands/dist/index.js",
    "@codemirror/lang-yaml": "@codemirror/lang-yaml/dist/index.js",
    "@codemirror/language": "@codemirror/language/dist/index.js",
    "@codemirror/lint": "@codemirror/lint/dist/index.js",
    "@codemirror/state": "@codemirror/state/dist/index.js",
    "@codemirror/streamparser": "@codemirror/streamparser/dist/index.js",
    "@codemirror/view": "@codemirror/view/dist/index.js",
    "@lezer/common": "@lezer/common/dist/index.js",
    "@lezer/highlight": "@lezer/highlight/dist/index.js",
    "@lezer/lr": "@lezer/lr/dist/index.js",
    "@lezer/yaml": "@lezer/yaml/dist/index.js",
    "@marijn/find-cluster-break": "@marijn/find-cluster-break/src/index.js",
    "crelt": "crelt/index.js",
    "style-mod": "style-mod/src/style-mod.js",
    "w3c-keyname": "w3c-keyname/index.js",
}
SERVED = frozenset(MODULES.values())

IMPORT_MAP = json.dumps(
    {"imports": {name: URL_PREFIX + path for name, path in sorted(MODULES.items())}},
    separators=(",", ":"),
)
IMPORT_MAP_HASH = "sha256-" + base64.b64encode(hashlib.sha256(IMPORT_MAP.encode()).digest()).decode()
# The site's CSP, with the import map's hash added to script-src (the workshop page only).
WORKSHOP_CSP = CSP.replace("script-src 'self'", f"script-src 'self' '{IMPORT_MAP_HASH}'", 1)
assert WORKSHOP_CSP != CSP, "security.CSP no longer has the script-src this module extends"


def installed() -> bool:
    return all((NODE_MODULES / path).is_file() for path in SERVED)


async def codemirror_module(request: Request) -> Response:
    """One of CodeMirror's modules (only those of MODULES); 404 for any other path."""
    path = str(request.path_params["path"])
    if path not in SERVED:
        raise NotFound("not a CodeMirror module this site serves")
    file = NODE_MODULES / path
    if not file.is_file():
        raise NotFound("CodeMirror is not installed on this server (npm ci in web/frontend)")
    return FileResponse(file, media_type="text/javascript", headers={"Cache-Control": "public, max-age=3600"})
