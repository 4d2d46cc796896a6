package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// endpointLimitKey names the rate limit budget of a request to a public
// endpoint: its installation's (the space and site installations' share
// it), or the integration's for the integration's own endpoint.
func endpointLimitKey(r *http.Request) string {
	if id := r.PathValue("installationId"); id != "" {
		return "endpoint:" + id
	}
	return "endpoint:integration:" + r.PathValue("integrationName")
}

// publicEndpoint serves urls.publicEndpoint of integrations, installations
// and space and site installations (any method, any path below it): the
// request goes to the integration's script as a fetch event, and its
// answer comes back (docs/integrations.md).
func (s *Server) publicEndpoint(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		in := app.EndpointRequest{Integration: r.PathValue("integrationName"), Installation: r.PathValue("installationId"),
			Method: r.Method, URL: s.urls.Public + r.URL.EscapedPath(), Header: r.Header}
		if kind != "" {
			in.TargetKind, in.TargetID = kind, r.PathValue(kind+"Id")
		}
		if r.URL.RawQuery != "" {
			in.URL += "?" + r.URL.RawQuery
		}
		if hasBody(r) {
			if r.ContentLength > app.MaxEndpointBody {
				return errTooLarge(app.MaxEndpointBody)
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, app.MaxEndpointBody))
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge):
				return errTooLarge(app.MaxEndpointBody)
			case isTimeout(err):
				return errBodyTimeout
			case err != nil:
				return folio.Errorf(folio.Invalid, "the request body could not be read")
			}
			in.Body = body
		}
		out, err := s.app.ServePublicEndpoint(r.Context(), in)
		if err != nil {
			return err
		}
		h := w.Header()
		for k, vs := range out.Header {
			h[k] = vs
		}
		// The answer shares its origin with the API and the published
		// sites: a page it serves runs sandboxed, in an origin of its own.
		h.Set("Content-Security-Policy", "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(out.Status)
		if r.Method != http.MethodHead {
			w.Write(out.Body)
		}
		return nil
	}
}
