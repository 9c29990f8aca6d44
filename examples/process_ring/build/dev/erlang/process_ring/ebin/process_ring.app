{application, process_ring, [
    {vsn, "1.0.0"},
    {applications, []},
    {description, "beamr's Gleam example: a ring of processes, with no dependencies"},
    {modules, [process_ring]},
    {registered, []}
]}.
