"""Several server processes behind one address (docs/scaling.md): each process's id and inbox
(`node`), room ownership by lease (`leases`), writes made only by the owner (`store`), the shared
lobby (`lobby`), the coordinator that ties them to the room registry (`cluster`), sockets and
room calls carried to a room's owner (`relay`, in `wire`'s typed messages), and the room gateway
that `app.main` picks for this deployment (`gateway`)."""
