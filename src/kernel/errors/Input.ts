/**
 * The errors of reading input: files, JSON, Schemas, IDs and references.
 * One `Schema.TaggedError` class per diagnostic code, made by `CodedError`
 * from its tag alone: the code, its meaning, status and exit class are the
 * code table's row (src/kernel/DiagnosticCode.ts), the only place a code is
 * listed.
 *
 * @since 0.1.0
 */
import { CodedError } from "./Base.js"

/** @category input errors */
export class FileUnreadable extends CodedError<FileUnreadable>()("FileUnreadable") {}
/** @category input errors */
export class FileTooLarge extends CodedError<FileTooLarge>()("FileTooLarge") {}
/** @category input errors */
export class EmptyFile extends CodedError<EmptyFile>()("EmptyFile") {}
/** @category input errors */
export class InvalidUtf8 extends CodedError<InvalidUtf8>()("InvalidUtf8") {}
/** @category input errors */
export class JsonSyntax extends CodedError<JsonSyntax>()("JsonSyntax") {}
/** @category input errors */
export class DepthLimit extends CodedError<DepthLimit>()("DepthLimit") {}
/** @category input errors */
export class ForbiddenKey extends CodedError<ForbiddenKey>()("ForbiddenKey") {}
/** @category input errors */
export class DuplicateKey extends CodedError<DuplicateKey>()("DuplicateKey") {}
/** @category input errors */
export class UnsafeNumber extends CodedError<UnsafeNumber>()("UnsafeNumber") {}
/** @category input errors */
export class SchemaInvalid extends CodedError<SchemaInvalid>()("SchemaInvalid") {}
/** @category input errors */
export class UnknownField extends CodedError<UnknownField>()("UnknownField") {}
/** @category input errors */
export class UnclassifiedFile extends CodedError<UnclassifiedFile>()("UnclassifiedFile") {}
/** @category input errors */
export class UnsupportedVersion extends CodedError<UnsupportedVersion>()("UnsupportedVersion") {}
/** @category input errors */
export class DuplicateId extends CodedError<DuplicateId>()("DuplicateId") {}
/** @category input errors */
export class InvalidId extends CodedError<InvalidId>()("InvalidId") {}
/** @category input errors */
export class UnknownReference extends CodedError<UnknownReference>()("UnknownReference") {}
