/**
 * Every subcommand of `cardfx`.
 *
 * @since 0.1.0
 */
import { schemaCommand } from "./schema.js"
import { startCommand } from "./start.js"
import { validateCommand } from "./validate.js"

export const commands = [validateCommand, schemaCommand, startCommand] as const
