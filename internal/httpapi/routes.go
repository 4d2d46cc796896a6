package httpapi

// routes registers every route. It is the index of the API: one line per
// operation, named after the GitBook operationId where one exists.
func (s *Server) routes() {
	s.mux.Handle("GET /healthz", s.wrap("GET /healthz", public, s.healthz))
	s.mux.Handle("GET /metrics", s.metrics.handler())

	// Users and API tokens.
	s.handle("GET /v1/user", authed, s.getAuthenticatedUser)
	s.handle("GET /v1/users/{userId}", authed, s.getUserByID)
	s.handle("GET /v1/user/tokens", authed, s.listAPITokens)               // folio
	s.handle("POST /v1/user/tokens", authed, s.createAPIToken)             // folio
	s.handle("DELETE /v1/user/tokens/{tokenId}", authed, s.revokeAPIToken) // folio

	// Organizations.
	s.handle("GET /v1/orgs", authed, s.listOrganizationsForAuthenticatedUser)
	s.handle("POST /v1/orgs", authed, s.createOrganization) // folio
	s.handle("GET /v1/orgs/{organizationId}", authed, s.getOrganizationByID)
	s.handle("PATCH /v1/orgs/{organizationId}", authed, s.updateOrganizationByID)
}
