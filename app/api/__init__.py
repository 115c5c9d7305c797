"""HTTP and websocket routers: thin bodies over rooms and services."""
