// Package webhook is the delivery engine for outbound webhooks and
// integration events: it signs a body, POSTs it once through the server's
// guarded HTTP client, and describes the outcome as an Attempt. It keeps no
// state; the app's durable jobs own the outbox, call DeliverJSON or
// DeliverEvent once per try, record each Attempt in the event's trace and
// delivery log, and use Backoff to schedule the next try.
//
// Allowed imports: folio and the standard library (wire when payloads move
// here).
//
// # The GitBook contract
//
// Read from GitbookIO/integrations (packages/runtime/src/integrations.ts,
// context.ts, integrations/webhook/src/common.ts and its tests) at commit
// fbf5fe9 (August 2026):
//
//   - Integration dispatch: GitBook POSTs to the integration's script as
//     multipart form data. The runtime reads the part "event" (JSON.parse of
//     the text: eventId, type, installationId, …), the part "environment"
//     (JSON.parse into IntegrationEnvironment: apiEndpoint, apiTokens
//     {integration, installation}, integration {name, version, …},
//     installation / spaceInstallation / siteInstallation with their
//     configuration, secrets, signingSecrets {integration, siteInstallation})
//     and the optional part "fetch-body", which becomes the body of the
//     Request handed to a fetch handler (event.request carries its method,
//     URL and headers). In production the runtime answers 400 unless the
//     request path is "/v1", so the caller appends "/v1" to a script URL; dev
//     mode accepts any path. Handlers answer 200 "OK" for GitBook events,
//     406 for an event type the integration does not handle, the
//     ExposableError's code, or 500 for other exceptions. The runtime does not
//     verify any signature on the dispatch itself, so the X-GitBook-Signature
//     that DeliverEvent adds is harmless to GitBook scripts and lets Folio's
//     own receivers (dev tunnels, tests) check the origin.
//   - Webhook integration: the JSON of the event is POSTed with Content-Type
//     application/json, User-Agent "GitBook-Webhook" and
//     X-GitBook-Signature "t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
//     "<t>.<body>")>", with a 10 s limit per try. Its verifier splits the
//     header on commas, takes t= and v1=, and compares in constant time; it
//     checks no timestamp window (Verify does). It retries 5xx, 429 and
//     network errors and timeouts 3 times, 1 s doubling with 10% jitter, and
//     sends no delivery id (receivers must be idempotent).
//   - Redirects: the webhook integration calls fetch without a redirect
//     option, so the Workers runtime follows them. Folio follows only 307
//     and 308, which resend the same signed POST, at most MaxRedirects times
//     and each through the guarded client's checks. A 301, 302 or 303 would
//     turn the POST into a GET without a body, which a receiver may well
//     answer with 200, recording a delivery that never happened; such an
//     answer is therefore a failure that is not retried, and its message asks
//     for the final URL.
//
// # What Folio adds
//
// Every delivery carries Idempotency-Key: <delivery id>, the same on every
// try, because delivery is at least once (a restart between the receiver's
// 2xx and the job's commit sends it again). User-Agent is UserAgent. Retries
// run for hours rather than seconds (Backoff), since they are durable jobs,
// and honour Retry-After on 429 and 503 (Attempt.RetryAfter; the job waits
// for the longer of it and Backoff's wait).
//
// # Classification
//
// A 2xx answer is success. 408, 425, 429, 5xx, timeouts, refused or reset
// connections and DNS failures set Attempt.Retry. Other 4xx, 3xx, an invalid
// URL, and refusals by the guarded client or the redirect policy (errors of
// kind Invalid, Forbidden or NotFound) do not: they fail the delivery at once.
//
// # Disabling a subscription
//
// The app, not this package, keeps a per-subscription count of consecutive
// deliveries that failed for good (Backoff gave up, or an Attempt had Retry
// false), reset by any success. When it reaches DisableAfterFailures the
// subscription is disabled and the reason is recorded from the last
// Attempt ("disabled after 5 failed deliveries in a row; last: the receiver
// answered 410"); the admin re-enables it after fixing the receiver, and may
// redeliver the failed ones from the delivery log.
//
// # Safety
//
// Everything is bounded: a response is read to at most MaxResponseRead bytes
// and only MaxSnippet are kept; a try lasts at most the Client's timeout,
// and ends early when the caller's context does. Attempt.Error never holds
// the secret, the URL's userinfo or its query string, so it can be shown to
// admins. No input makes the package panic.
package webhook

// DisableAfterFailures is how many deliveries in a row may fail for good
// before the app disables their subscription.
const DisableAfterFailures = 5
