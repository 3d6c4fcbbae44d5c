"""Knock over the wire: the table protocol (``knock.web.protocol``, spec/protocol.md), the tables, the event
store, the ASGI server (``knock serve``) and the JSON-lines engine (``knock engine``).

The protocol, the views and the tables need only the engine and the log library; the server needs the
``web`` extra (``pip install 'knock-gin[web]'``: Starlette, uvicorn, websockets).
"""
