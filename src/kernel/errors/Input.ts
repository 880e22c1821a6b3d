/**
 * The errors of reading input: files, JSON, Schemas, IDs and references.
 * One `Schema.TaggedError` class per diagnostic code; its `_tag` is the code
 * table's tag and its `code` field the code.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { complete, type ErrorProps, fields } from "./Base.js"

/** `file_unreadable`: The file or folder could not be read. */
export class FileUnreadable
  extends Schema.TaggedError<FileUnreadable>()("FileUnreadable", { code: Schema.tag("file_unreadable"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_unreadable", props), options)
  }
}
/** `file_too_large`: The file is larger than the input size cap. */
export class FileTooLarge
  extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", { code: Schema.tag("file_too_large"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("file_too_large", props), options)
  }
}
/** `empty_file`: The file is empty or holds only white space. */
export class EmptyFile
  extends Schema.TaggedError<EmptyFile>()("EmptyFile", { code: Schema.tag("empty_file"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("empty_file", props), options)
  }
}
/** `invalid_utf8`: The file is not valid UTF-8. */
export class InvalidUtf8
  extends Schema.TaggedError<InvalidUtf8>()("InvalidUtf8", { code: Schema.tag("invalid_utf8"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_utf8", props), options)
  }
}
/** `json_syntax`: The file is not well-formed JSON. */
export class JsonSyntax
  extends Schema.TaggedError<JsonSyntax>()("JsonSyntax", { code: Schema.tag("json_syntax"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("json_syntax", props), options)
  }
}
/** `depth_limit`: JSON nesting is deeper than the input depth cap. */
export class DepthLimit
  extends Schema.TaggedError<DepthLimit>()("DepthLimit", { code: Schema.tag("depth_limit"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("depth_limit", props), options)
  }
}
/** `forbidden_key`: An object key is __proto__, constructor or prototype. */
export class ForbiddenKey
  extends Schema.TaggedError<ForbiddenKey>()("ForbiddenKey", { code: Schema.tag("forbidden_key"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("forbidden_key", props), options)
  }
}
/** `duplicate_key`: An object repeats a key; JSON.parse would silently keep the last one. */
export class DuplicateKey
  extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", { code: Schema.tag("duplicate_key"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("duplicate_key", props), options)
  }
}
/** `unsafe_number`: A number is non-finite or outside the safe-integer range. */
export class UnsafeNumber
  extends Schema.TaggedError<UnsafeNumber>()("UnsafeNumber", { code: Schema.tag("unsafe_number"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsafe_number", props), options)
  }
}
/** `schema_invalid`: A value does not have the shape its Schema requires. */
export class SchemaInvalid
  extends Schema.TaggedError<SchemaInvalid>()("SchemaInvalid", { code: Schema.tag("schema_invalid"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("schema_invalid", props), options)
  }
}
/** `unknown_field`: An object has a key its Schema does not declare. */
export class UnknownField
  extends Schema.TaggedError<UnknownField>()("UnknownField", { code: Schema.tag("unknown_field"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_field", props), options)
  }
}
/** `unclassified_file`: cardfx cannot tell what kind of content a file holds. */
export class UnclassifiedFile extends Schema.TaggedError<UnclassifiedFile>()("UnclassifiedFile", {
  code: Schema.tag("unclassified_file"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unclassified_file", props), options)
  }
}
/** `unsupported_version`: A version field names a version this engine does not support. */
export class UnsupportedVersion extends Schema.TaggedError<UnsupportedVersion>()("UnsupportedVersion", {
  code: Schema.tag("unsupported_version"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unsupported_version", props), options)
  }
}
/** `duplicate_id`: An ID is declared more than once in its scope. */
export class DuplicateId
  extends Schema.TaggedError<DuplicateId>()("DuplicateId", { code: Schema.tag("duplicate_id"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("duplicate_id", props), options)
  }
}
/** `invalid_id`: An ID is not ASCII of the allowed characters or is longer than its limit. */
export class InvalidId
  extends Schema.TaggedError<InvalidId>()("InvalidId", { code: Schema.tag("invalid_id"), ...fields })
{
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("invalid_id", props), options)
  }
}
/** `unknown_reference`: A reference names something that is not declared. */
export class UnknownReference extends Schema.TaggedError<UnknownReference>()("UnknownReference", {
  code: Schema.tag("unknown_reference"),
  ...fields
}) {
  constructor(props: ErrorProps, options?: Schema.MakeOptions) {
    super(complete("unknown_reference", props), options)
  }
}
