/**
 * One span per service call. Every service's layer hands its implementation
 * to {@link traced}, which wraps each method (and each Effect-valued field)
 * in `Effect.withSpan("Service.method")`: with a tracer layer in the
 * application (an OpenTelemetry exporter, or the in-memory tracer of
 * test/services/tracing.test.ts), each call of a service method is one span,
 * a child of the span of whatever called it (an HTTP request's span, a CLI
 * command's). Without a tracer, Effect's own no-op spans cost a few objects
 * per call; no stack trace is captured. How to attach an exporter:
 * docs/services.md ("Traces").
 *
 * @since 0.1.0
 */
import { Effect } from "effect"

const spanOptions = { captureStackTrace: false } as const

/**
 * The span name of a service method: `Service.method` (e.g. `Cards.inspect`).
 *
 * @category tracing
 * @since 0.1.0
 */
export const spanName = (service: string, method: string): string => `${service}.${method}`

/**
 * `impl` with one span per call of each method: a method that returns an
 * Effect returns it inside `Effect.withSpan(spanName(service, key))`; a field
 * that is an Effect (e.g. a catalog's `current`) is wrapped the same way;
 * everything else is kept as it is. The object is copied (its own enumerable
 * fields), so a service value keeps its type.
 *
 * @category tracing
 * @since 0.1.0
 */
export const traced = <S extends object>(service: string, impl: S): S => {
  const out = { ...impl }
  for (const [key, value] of Object.entries(impl)) {
    const name = spanName(service, key)
    if (Effect.isEffect(value)) {
      Reflect.set(out, key, Effect.withSpan(value, name, spanOptions))
    } else if (typeof value === "function") {
      Reflect.set(out, key, (...args: ReadonlyArray<unknown>): unknown => {
        const result: unknown = Reflect.apply(value, impl, args)
        return Effect.isEffect(result) ? Effect.withSpan(result, name, spanOptions) : result
      })
    }
  }
  return out
}
