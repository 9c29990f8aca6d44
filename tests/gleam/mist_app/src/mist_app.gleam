//// A small web app on mist: what beamr's gleam step serves on erl 27 and on
//// beamr, driving both with the same requests and comparing the answers.
//// It listens on 127.0.0.1 on a port the system picks and prints
//// `listening on PORT` once it serves; given `tls/cert.pem` and
//// `tls/key.pem`, it serves over TLS as well, on another port it prints as
//// `listening tls on PORT`.

import gleam/bit_array
import gleam/bytes_tree
import gleam/dynamic/decode
import gleam/erlang/process
import gleam/http
import gleam/http/request.{type Request}
import gleam/http/response.{type Response}
import gleam/int
import gleam/io
import gleam/json
import gleam/list
import gleam/option.{type Option, None, Some}
import gleam/otp/actor
import gleam/result
import gleam/string
import gleam/string_tree
import gleam/yielder
import mist.{type Connection, type ResponseData}

pub fn main() -> Nil {
  let builder =
    handle
    |> mist.new
    |> mist.bind("127.0.0.1")
    |> mist.port(0)
    |> mist.after_start(fn(port, scheme, _address) {
      case scheme {
        http.Http -> io.println("listening on " <> int.to_string(port))
        http.Https -> io.println("listening tls on " <> int.to_string(port))
      }
    })
  let assert Ok(_) = mist.start(builder)
  // The same app over TLS too, when the gleam step has made a certificate
  // (`tls/cert.pem`, signed by its own test CA) and its key.
  case is_regular_file(tls_cert), is_regular_file(tls_key) {
    True, True -> {
      let assert Ok(_) =
        builder
        |> mist.with_tls(certfile: tls_cert, keyfile: tls_key)
        |> mist.start
      Nil
    }
    _, _ -> Nil
  }
  process.sleep_forever()
}

const tls_cert = "tls/cert.pem"

const tls_key = "tls/key.pem"

@external(erlang, "filelib", "is_regular")
fn is_regular_file(path: String) -> Bool

fn handle(req: Request(Connection)) -> Response(ResponseData) {
  case req.method, request.path_segments(req) {
    http.Get, ["hello"] | http.Head, ["hello"] -> text(200, "Hello, world!")
    http.Get, ["query"] -> query(req)
    http.Get, ["json"] -> person(req)
    http.Post, ["echo"] -> echo_body(req)
    http.Post, ["sum"] -> sum(req)
    http.Get, ["work"] -> work(req)
    http.Get, ["crash"] -> panic as "the handler crashed on purpose"
    http.Get, ["chunked"] -> chunked()
    http.Get, ["ws"] -> websocket(req)
    http.Get, ["events"] -> events(req)
    http.Get, ["file", "gleam.toml"] -> file("gleam.toml", 0, None)
    http.Get, ["file", "part"] -> file("gleam.toml", 7, Some(8))
    http.Get, ["file", ..] -> file("no/such/file", 0, None)
    _, _ -> text(404, "Not found")
  }
}

fn text(status: Int, body: String) -> Response(ResponseData) {
  response.new(status)
  |> response.set_header("content-type", "text/plain")
  |> response.set_body(mist.Bytes(bytes_tree.from_string(body)))
}

fn json_response(status: Int, body: json.Json) -> Response(ResponseData) {
  response.new(status)
  |> response.set_header("content-type", "application/json")
  |> response.set_body(mist.Bytes(bytes_tree.from_string(json.to_string(body))))
}

/// Every query parameter, in order, one `key=value` line each.
fn query(req: Request(Connection)) -> Response(ResponseData) {
  case request.get_query(req) {
    Ok(params) ->
      params
      |> list.map(fn(pair) { pair.0 <> "=" <> pair.1 <> "\n" })
      |> string.concat
      |> text(200, _)
    Error(Nil) -> text(400, "Bad query")
  }
}

/// A JSON document built with gleam_json from the `name` parameter.
fn person(req: Request(Connection)) -> Response(ResponseData) {
  let params = request.get_query(req) |> result.unwrap([])
  let name = list.key_find(params, "name") |> result.unwrap("nobody")
  json_response(
    200,
    json.object([
      #("name", json.string(name)),
      #("length", json.int(string.length(name))),
      #("ratio", json.float(1.0 /. 3.0)),
      #("tags", json.array(["a", "b\"c", "\u{e9}"], of: json.string)),
      #("nothing", json.null()),
      #("ok", json.bool(True)),
    ]),
  )
}

fn echo_body(req: Request(Connection)) -> Response(ResponseData) {
  let content_type =
    request.get_header(req, "content-type") |> result.unwrap("text/plain")
  case mist.read_body(req, 1024 * 1024) {
    Ok(req) ->
      response.new(200)
      |> response.set_header("content-type", content_type)
      |> response.set_body(mist.Bytes(bytes_tree.from_bit_array(req.body)))
    Error(_) -> text(400, "Cannot read the body")
  }
}

/// `{"numbers": [...]}` in, `{"sum": N, "count": N}` out, decoded with
/// gleam_json; a body that does not decode gets a 422 naming the error.
fn sum(req: Request(Connection)) -> Response(ResponseData) {
  let decoder = {
    use numbers <- decode.field("numbers", decode.list(decode.int))
    decode.success(numbers)
  }
  let parsed =
    mist.read_body(req, 1024 * 1024)
    |> result.replace_error("unreadable body")
    |> result.try(fn(req) {
      bit_array.to_string(req.body) |> result.replace_error("not UTF-8")
    })
    |> result.try(fn(body) {
      json.parse(body, decoder)
      |> result.map_error(fn(e) { string.inspect(e) })
    })
  case parsed {
    Ok(numbers) ->
      json_response(
        200,
        json.object([
          #("sum", json.int(int.sum(numbers))),
          #("count", json.int(list.length(numbers))),
        ]),
      )
    Error(reason) ->
      json_response(422, json.object([#("error", json.string(reason))]))
  }
}

/// A CPU-bound answer, for the server benchmark: `n` (the parameter, 1000
/// by default, at most 100000) numbers scrambled, sorted, summed, and the
/// smallest five and the sum given as JSON.
fn work(req: Request(Connection)) -> Response(ResponseData) {
  let n =
    request.get_query(req)
    |> result.unwrap([])
    |> list.key_find("n")
    |> result.try(int.parse)
    |> result.unwrap(1000)
    |> int.clamp(min: 1, max: 100_000)
  let sorted =
    int.range(from: 1, to: n + 1, with: [], run: fn(acc, i) {
      [i * 7919 % 10_007, ..acc]
    })
    |> list.sort(int.compare)
  json_response(
    200,
    json.object([
      #("n", json.int(n)),
      #("smallest", json.array(list.take(sorted, 5), of: json.int)),
      #("sum", json.int(int.sum(sorted))),
    ]),
  )
}

/// The project's own `gleam.toml` (the server runs in the project), or
/// `limit` bytes of it from `offset`, through sendfile.
fn file(
  path: String,
  offset: Int,
  limit: Option(Int),
) -> Response(ResponseData) {
  case mist.send_file(path, offset:, limit:) {
    Ok(body) ->
      response.new(200)
      |> response.set_header("content-type", "text/plain")
      |> response.set_body(body)
    Error(error) -> text(404, "No file: " <> string.inspect(error))
  }
}

fn chunked() -> Response(ResponseData) {
  let chunks =
    ["one", "two", "three", string.repeat("x", 1000)]
    |> yielder.from_list
    |> yielder.map(bytes_tree.from_string)
  response.new(200)
  |> response.set_header("content-type", "text/plain")
  |> response.set_body(mist.Chunked(chunks))
}

/// Three server-sent events, then the stream ends (its process stops, and
/// mist closes the connection).
fn events(req: Request(Connection)) -> Response(ResponseData) {
  mist.server_sent_events(
    request: req,
    initial_response: response.new(200),
    init: fn(subject) {
      list.each([1, 2, 3], process.send(subject, _))
      Ok(actor.initialised(Nil))
    },
    loop: fn(state, n, conn) {
      let event =
        string_tree.from_string("tick " <> int.to_string(n) <> "\nsecond line")
        |> mist.event
        |> mist.event_id(int.to_string(n))
        |> mist.event_name("tick")
      case mist.send_event(conn, event), n < 3 {
        Ok(Nil), True -> actor.continue(state)
        _, _ -> actor.stop()
      }
    },
  )
}

/// Echoes text and binary frames back, a text frame prefixed with `echo: `.
fn websocket(req: Request(Connection)) -> Response(ResponseData) {
  mist.websocket(
    request: req,
    on_init: fn(_conn) { #(Nil, None) },
    on_close: fn(_state) { Nil },
    handler: fn(state, message, conn) {
      case message {
        mist.Text(text) -> {
          let assert Ok(_) = mist.send_text_frame(conn, "echo: " <> text)
          mist.continue(state)
        }
        mist.Binary(bits) -> {
          let assert Ok(_) = mist.send_binary_frame(conn, bits)
          mist.continue(state)
        }
        mist.Custom(_) -> mist.continue(state)
        mist.Closed | mist.Shutdown -> mist.stop()
      }
    },
  )
}
