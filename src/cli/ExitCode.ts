/**
 * The contract's exit statuses: 0 ok, 1 content diagnostics (or a rejected
 * command, an environment problem), 2 a usage error, 70 a defect; 130 is an
 * interruption. A module of its own (no service, no Schema), so the bin's
 * front can read it.
 *
 * @since 0.1.0
 */
export const ExitCode = {
  ok: 0,
  contentErrors: 1,
  usage: 2,
  internal: 70
} as const
