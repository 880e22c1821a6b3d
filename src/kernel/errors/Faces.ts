/**
 * The errors the faces meet: usage, output files, scale-out (workers and
 * the cluster) and HTTP (authorization, routes, bodies, the server's state).
 * One `Schema.TaggedError` class per diagnostic code, made by `CodedError`
 * from its tag alone: the code, its meaning, status and exit class are the
 * code table's row (src/kernel/DiagnosticCode.ts), the only place a code is
 * listed.
 *
 * @since 0.1.0
 */
import { CodedError } from "./Base.js"

/** @category faces errors */
export class UsageError extends CodedError<UsageError>()("UsageError") {}
/** @category faces errors */
export class FileUnwritable extends CodedError<FileUnwritable>()("FileUnwritable") {}
/** @category faces errors */
export class SimulationSplit extends CodedError<SimulationSplit>()("SimulationSplit") {}
/** @category faces errors */
export class WorkerFailed extends CodedError<WorkerFailed>()("WorkerFailed") {}
/** @category faces errors */
export class ClusterUnreachable extends CodedError<ClusterUnreachable>()("ClusterUnreachable") {}
/** @category faces errors */
export class ClusterNoRunners extends CodedError<ClusterNoRunners>()("ClusterNoRunners") {}
/** @category faces errors */
export class ClusterPortInUse extends CodedError<ClusterPortInUse>()("ClusterPortInUse") {}
/** @category faces errors */
export class Unauthorized extends CodedError<Unauthorized>()("Unauthorized") {}
/** @category faces errors */
export class Forbidden extends CodedError<Forbidden>()("Forbidden") {}
/** @category faces errors */
export class UnknownRoute extends CodedError<UnknownRoute>()("UnknownRoute") {}
/** @category faces errors */
export class UnknownInstance extends CodedError<UnknownInstance>()("UnknownInstance") {}
/** @category faces errors */
export class UnknownGame extends CodedError<UnknownGame>()("UnknownGame") {}
/** @category faces errors */
export class BodyTooLarge extends CodedError<BodyTooLarge>()("BodyTooLarge") {}
/** @category faces errors */
export class RequestTimeout extends CodedError<RequestTimeout>()("RequestTimeout") {}
/** @category faces errors */
export class TooManySubscribers extends CodedError<TooManySubscribers>()("TooManySubscribers") {}
/** @category faces errors */
export class StartRejected extends CodedError<StartRejected>()("StartRejected") {}
/** @category faces errors */
export class StepConflict extends CodedError<StepConflict>()("StepConflict") {}
/** @category faces errors */
export class ReloadRejected extends CodedError<ReloadRejected>()("ReloadRejected") {}
/** @category faces errors */
export class Unavailable extends CodedError<Unavailable>()("Unavailable") {}
/** @category faces errors */
export class Starting extends CodedError<Starting>()("Starting") {}
/** @category faces errors */
export class PortInUse extends CodedError<PortInUse>()("PortInUse") {}
/** @category faces errors */
export class MethodNotAllowed extends CodedError<MethodNotAllowed>()("MethodNotAllowed") {}
/** @category faces errors */
export class UnsupportedMediaType extends CodedError<UnsupportedMediaType>()("UnsupportedMediaType") {}
/** @category faces errors */
export class HostNotAllowed extends CodedError<HostNotAllowed>()("HostNotAllowed") {}
/** @category faces errors */
export class OriginNotAllowed extends CodedError<OriginNotAllowed>()("OriginNotAllowed") {}
/** @category faces errors */
export class InternalError extends CodedError<InternalError>()("InternalError") {}
/** @category faces errors */
export class RateLimited extends CodedError<RateLimited>()("RateLimited") {}
/** @category faces errors */
export class TooManyGames extends CodedError<TooManyGames>()("TooManyGames") {}
/** @category faces errors */
export class InvitationInvalid extends CodedError<InvitationInvalid>()("InvitationInvalid") {}
/** @category faces errors */
export class ReloadInvalid extends CodedError<ReloadInvalid>()("ReloadInvalid") {}
