/**
 * The errors the faces meet: usage, output files, scale-out (workers and
 * the cluster) and HTTP (authorization, routes, bodies, the server's state).
 * One `Schema.TaggedError` class per diagnostic code; its `_tag` is the code
 * table's tag and its `code` field the code.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { complete, type ErrorProps, fields } from "./Base.js"

/** `usage_error`: The command line is not valid for this command. */
export class UsageError
  extends Schema.TaggedError<UsageError>()("UsageError", { code: Schema.tag("usage_error"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("usage_error", props), options)
  }
}
/** `file_unwritable`: An output file or folder (--out, --log) cannot be written. */
export class FileUnwritable
  extends Schema.TaggedError<FileUnwritable>()("FileUnwritable", { code: Schema.tag("file_unwritable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_unwritable", props), options)
  }
}
/** `simulation_split`: Partial simulation results do not cover adjacent game ranges of one seed. */
export class SimulationSplit
  extends Schema.TaggedError<SimulationSplit>()("SimulationSplit", { code: Schema.tag("simulation_split"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("simulation_split", props), options)
  }
}
/** `worker_failed`: A worker thread or cluster runner failed or died before answering. */
export class WorkerFailed
  extends Schema.TaggedError<WorkerFailed>()("WorkerFailed", { code: Schema.tag("worker_failed"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("worker_failed", props), options)
  }
}
/** `cluster_unreachable`: The cluster's PostgreSQL (--pg, --cluster) cannot be reached or its storage fails. */
export class ClusterUnreachable extends Schema.TaggedError<ClusterUnreachable>()("ClusterUnreachable", {
  code: Schema.tag("cluster_unreachable"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_unreachable", props), options)
  }
}
/** `cluster_no_runners`: No cluster runner is alive to play the shards of a --cluster simulation. */
export class ClusterNoRunners extends Schema.TaggedError<ClusterNoRunners>()("ClusterNoRunners", {
  code: Schema.tag("cluster_no_runners"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_no_runners", props), options)
  }
}
/** `cluster_port_in_use`: A cluster runner cannot listen on its --host/--port. */
export class ClusterPortInUse extends Schema.TaggedError<ClusterPortInUse>()("ClusterPortInUse", {
  code: Schema.tag("cluster_port_in_use"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("cluster_port_in_use", props), options)
  }
}
/** `unauthorized`: A request that needs a credential has none (the operator's bearer token or a seat's X-Seat-Secret). */
export class Unauthorized
  extends Schema.TaggedError<Unauthorized>()("Unauthorized", { code: Schema.tag("unauthorized"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unauthorized", props), options)
  }
}
/** `forbidden`: The request's credential does not grant it. */
export class Forbidden
  extends Schema.TaggedError<Forbidden>()("Forbidden", { code: Schema.tag("forbidden"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("forbidden", props), options)
  }
}
/** `unknown_route`: No endpoint has this method and path. */
export class UnknownRoute
  extends Schema.TaggedError<UnknownRoute>()("UnknownRoute", { code: Schema.tag("unknown_route"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_route", props), options)
  }
}
/** `unknown_instance`: No stored card instance has this ID on the branch. */
export class UnknownInstance
  extends Schema.TaggedError<UnknownInstance>()("UnknownInstance", { code: Schema.tag("unknown_instance"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_instance", props), options)
  }
}
/** `unknown_game`: No Hallyu Hex game has this ID. */
export class UnknownGame
  extends Schema.TaggedError<UnknownGame>()("UnknownGame", { code: Schema.tag("unknown_game"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_game", props), options)
  }
}
/** `body_too_large`: The request body is larger than the server's body cap. */
export class BodyTooLarge
  extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", { code: Schema.tag("body_too_large"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("body_too_large", props), options)
  }
}
/** `request_timeout`: The request body or its handling took longer than the server's timeout. */
export class RequestTimeout
  extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", { code: Schema.tag("request_timeout"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("request_timeout", props), options)
  }
}
/** `too_many_subscribers`: A game (or the server) has as many open event streams as it allows. */
export class TooManySubscribers extends Schema.TaggedError<TooManySubscribers>()("TooManySubscribers", {
  code: Schema.tag("too_many_subscribers"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("too_many_subscribers", props), options)
  }
}
/** `start_rejected`: A server start refuses content that would break stored instances (each one listed); --allow-broken serves it anyway. */
export class StartRejected
  extends Schema.TaggedError<StartRejected>()("StartRejected", { code: Schema.tag("start_rejected"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("start_rejected", props), options)
  }
}
/** `step_conflict`: An action's expectedStep is not the game's current step. */
export class StepConflict
  extends Schema.TaggedError<StepConflict>()("StepConflict", { code: Schema.tag("step_conflict"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("step_conflict", props), options)
  }
}
/** `reload_rejected`: New content would break stored instances; the old runtime is kept. */
export class ReloadRejected
  extends Schema.TaggedError<ReloadRejected>()("ReloadRejected", { code: Schema.tag("reload_rejected"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("reload_rejected", props), options)
  }
}
/** `unavailable`: The server is shutting down and takes no new request. */
export class Unavailable
  extends Schema.TaggedError<Unavailable>()("Unavailable", { code: Schema.tag("unavailable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unavailable", props), options)
  }
}
/** `starting`: The server is still starting (its handler is not in place yet); retry in a moment. */
export class Starting extends Schema.TaggedError<Starting>()("Starting", {
  code: Schema.tag("starting"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("starting", props), options)
  }
}
/** `port_in_use`: cardfx serve cannot listen on its --host/--port (another process holds the port). */
export class PortInUse extends Schema.TaggedError<PortInUse>()("PortInUse", {
  code: Schema.tag("port_in_use"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("port_in_use", props), options)
  }
}
/** `method_not_allowed`: The path exists but does not take this method; the Allow header lists the ones it takes. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  code: Schema.tag("method_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("method_not_allowed", props), options)
  }
}
/** `unsupported_media_type`: A request body that is not Content-Type: application/json. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: Schema.tag("unsupported_media_type"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsupported_media_type", props), options)
  }
}
/** `host_not_allowed`: The Host header is neither a loopback name nor one given with --allowed-host (DNS rebinding). */
export class HostNotAllowed extends Schema.TaggedError<HostNotAllowed>()("HostNotAllowed", {
  code: Schema.tag("host_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("host_not_allowed", props), options)
  }
}
/** `origin_not_allowed`: A mutation sent by a browser page of another origin not given with --cors-origin. */
export class OriginNotAllowed extends Schema.TaggedError<OriginNotAllowed>()("OriginNotAllowed", {
  code: Schema.tag("origin_not_allowed"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("origin_not_allowed", props), options)
  }
}
/** `internal_error`: A defect in cardfx itself (exit 70, HTTP 500), reported without its stack trace; please report it. */
export class InternalError
  extends Schema.TaggedError<InternalError>()("InternalError", { code: Schema.tag("internal_error"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("internal_error", props), options)
  }
}
/** `rate_limited`: This client created games or branches faster than the server's rate limit allows. */
export class RateLimited
  extends Schema.TaggedError<RateLimited>()("RateLimited", { code: Schema.tag("rate_limited"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("rate_limited", props), options)
  }
}
/** `too_many_games`: The server has as many live Hallyu Hex games as it allows. */
export class TooManyGames
  extends Schema.TaggedError<TooManyGames>()("TooManyGames", { code: Schema.tag("too_many_games"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("too_many_games", props), options)
  }
}
/** `invitation_invalid`: No open invitation has this code: it is unknown, already used, or expired. */
export class InvitationInvalid extends Schema.TaggedError<InvitationInvalid>()("InvitationInvalid", {
  code: Schema.tag("invitation_invalid"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invitation_invalid", props), options)
  }
}
/** `reload_invalid`: A reload found served content that does not load; the old runtime is kept. */
export class ReloadInvalid
  extends Schema.TaggedError<ReloadInvalid>()("ReloadInvalid", { code: Schema.tag("reload_invalid"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("reload_invalid", props), options)
  }
}
