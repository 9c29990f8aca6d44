//// beamr's Gleam example, with no dependencies (not even gleam_stdlib):
//// a ring of processes. `main` spawns `size` processes, each forwarding
//// the number it receives, plus one, to the next; the last sends it back
//// to `main`, which sends it around the ring `laps` times and reports.

/// A process identifier, as Erlang's `erlang:self/0` returns it.
pub type Pid

/// How one run of the ring went.
pub type Report {
  Report(processes: Int, laps: Int, hops: Int)
}

@external(erlang, "erlang", "self")
fn self() -> Pid

@external(erlang, "erlang", "spawn")
fn spawn(running: fn() -> a) -> Pid

@external(erlang, "process_ring_ffi", "send")
fn send(to: Pid, number: Int) -> Nil

@external(erlang, "process_ring_ffi", "receive_number")
fn receive_number() -> Int

@external(erlang, "process_ring_ffi", "print")
fn print(line: String) -> Nil

@external(erlang, "erlang", "integer_to_binary")
fn int_to_string(number: Int) -> String

/// A member of the ring: forwards each number, plus one, to `next`.
fn forward(next: Pid) -> Nil {
  send(next, receive_number() + 1)
  forward(next)
}

/// Spawns `size` members in front of `next`; the first of them.
fn spawn_ring(size: Int, next: Pid) -> Pid {
  case size {
    0 -> next
    _ -> spawn_ring(size - 1, spawn(fn() { forward(next) }))
  }
}

/// Sends `number` around the ring from `first`, `laps` times.
fn run_laps(first: Pid, laps: Int, number: Int) -> Int {
  case laps {
    0 -> number
    _ -> {
      send(first, number)
      run_laps(first, laps - 1, receive_number())
    }
  }
}

/// Runs a ring of `processes` for `laps` laps.
pub fn run(processes: Int, laps: Int) -> Report {
  let first = spawn_ring(processes, self())
  Report(processes:, laps:, hops: run_laps(first, laps, 0))
}

fn describe(report: Report) -> String {
  let Report(processes:, laps:, hops:) = report
  int_to_string(processes)
  <> " processes, "
  <> int_to_string(laps)
  <> " laps: the number came back as "
  <> int_to_string(hops)
}

fn each(items: List(a), action: fn(a) -> b) -> Nil {
  case items {
    [] -> Nil
    [first, ..rest] -> {
      action(first)
      each(rest, action)
    }
  }
}

pub fn main() -> Nil {
  print("Hello from Gleam on beamr!")
  [#(10, 1), #(1000, 10), #(10_000, 3)]
  |> each(fn(sizes) { print(describe(run(sizes.0, sizes.1))) })
}
