package httpapi

import "github.com/foliodocs/folio"

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
	s.handle("POST /v1/orgs/{organizationId}/join", authed, s.joinOrganization)
	s.handle("POST /v1/orgs/{organizationId}/ping", authed, s.updateOrganizationMemberLastSeenAt)

	// Members.
	s.handle("GET /v1/orgs/{organizationId}/members", authed, s.listMembersInOrganizationByID)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}", authed, s.getMemberInOrganizationByID)
	s.handle("PATCH /v1/orgs/{organizationId}/members/{userId}", authed, s.updateMemberInOrganizationByID)
	s.handle("DELETE /v1/orgs/{organizationId}/members/{userId}", authed, s.removeMemberFromOrganizationByID)
	s.handle("POST /v1/orgs/{organizationId}/members/{userId}/sso", authed, s.setUserAsSSOMemberForOrganization)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/spaces", authed, s.listSpacesForOrganizationMember)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/teams", authed, s.listTeamsForOrganizationMember)

	// Invites.
	s.handle("POST /v1/orgs/{organizationId}/invites", authed, s.inviteUsersToOrganization)
	s.handle("POST /v1/orgs/{organizationId}/invites/{inviteId}", authed, s.joinOrganizationWithInvite)
	s.handle("GET /v1/orgs/{organizationId}/link-invites", authed, s.listOrganizationInviteLinks)
	s.handle("POST /v1/orgs/{organizationId}/link-invites", authed, s.createOrganizationInvite)
	s.handle("GET /v1/orgs/{organizationId}/link-invites/{inviteId}", authed, s.getOrganizationInviteLink)
	s.handle("PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}", authed, s.updateOrganizationInviteByID)
	s.handle("DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}", authed, s.deleteOrganizationInviteByID)

	// SAML single sign-on. start, acs and metadata are folio's service
	// provider endpoints; they and the login list need no token.
	s.handle("GET /v1/orgs/{organizationId}/saml", authed, s.listSAMLProvidersInOrganizationByID)
	s.handle("POST /v1/orgs/{organizationId}/saml", authed, s.createOrganizationSAMLProvider)
	s.handle("GET /v1/orgs/{organizationId}/saml/{samlProviderId}", authed, s.getOrganizationSAMLProviderByID)
	s.handle("PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}", authed, s.updateOrganizationSAMLProvider)
	s.handle("DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}", authed, s.deleteOrganizationSAMLProvider)
	s.handle("GET /v1/orgs/{organizationId}/saml/{samlProviderId}/start", public, s.samlStart)       // folio
	s.handle("POST /v1/orgs/{organizationId}/saml/{samlProviderId}/acs", publicForm, s.samlACS)      // folio
	s.handle("GET /v1/orgs/{organizationId}/saml/{samlProviderId}/metadata", public, s.samlMetadata) // folio
	s.handle("GET /v1/orgs/{organizationId}/sso", public, s.listSSOProviderLoginsInOrganization)

	// Agent instructions.
	s.handle("GET /v1/orgs/{organizationId}/agent-instructions", authed, s.getOrganizationAgentInstructions)
	s.handle("PUT /v1/orgs/{organizationId}/agent-instructions", authed, s.updateOrganizationAgentInstructions)

	// Spaces and collections.
	s.handle("GET /v1/orgs/{organizationId}/spaces", authed, s.listSpacesInOrganizationByID)
	s.handle("POST /v1/orgs/{organizationId}/spaces", authed, s.createSpace)
	s.handle("GET /v1/spaces/{spaceId}", authed, s.getSpaceByID)
	s.handle("PATCH /v1/spaces/{spaceId}", authed, s.updateSpaceByID)
	s.handle("DELETE /v1/spaces/{spaceId}", authed, s.deleteSpaceByID)
	s.handle("POST /v1/spaces/{spaceId}/restore", authed, s.restoreSpace)
	s.handle("POST /v1/spaces/{spaceId}/duplicate", authed, s.duplicateSpace)
	s.handle("POST /v1/spaces/{spaceId}/move", authed, s.moveSpace)
	s.handle("POST /v1/spaces/{spaceId}/transfer", authed, s.transferSpace)
	s.handle("GET /v1/orgs/{organizationId}/collections", authed, s.listCollectionsInOrganizationByID)
	s.handle("POST /v1/orgs/{organizationId}/collections", authed, s.createCollection)
	s.handle("GET /v1/collections/{collectionId}", authed, s.getCollectionByID)
	s.handle("PATCH /v1/collections/{collectionId}", authed, s.updateCollectionByID)
	s.handle("DELETE /v1/collections/{collectionId}", authed, s.deleteCollectionByID)
	s.handle("POST /v1/collections/{collectionId}/move", authed, s.moveCollection)
	s.handle("POST /v1/collections/{collectionId}/transfer", authed, s.transferCollection)
	s.handle("GET /v1/collections/{collectionId}/spaces", authed, s.listSpacesInCollectionByID)

	// Space content: the current revision, and any revision by id.
	for _, base := range []string{"/v1/spaces/{spaceId}/content", "/v1/spaces/{spaceId}/revisions/{revisionId}"} {
		s.handle("GET "+base, authed, s.getRevision)
		s.handle("GET "+base+"/pages", authed, s.listPages)
		s.handle("GET "+base+"/page/{pageId}", authed, s.getPage)
		s.handle("GET "+base+"/path/{pagePath...}", authed, s.getPage)
		s.handle("GET "+base+"/files", authed, s.listFiles)
		s.handle("GET "+base+"/files/{fileId}", authed, s.getFile)
	}
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", authed, s.getPageDocument)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", authed,
		s.getReusableContentDocument)
	s.handle("GET /v1/spaces/{spaceId}/documents/{documentId}", authed, s.getDocument)
	s.handle("GET /v1/files/{hash}", public, s.downloadFile) // folio: signed download URLs
	s.handle("GET /v1/spaces/{spaceId}/pdf", authed, s.getSpacePDF)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", authed, s.getChangeRequestPDF)
	s.handle("GET /v1/print/spaces/{spaceId}/revisions/{revisionId}", public, s.printPage) // folio: signed print URLs (docs/pdf.md)
	s.handle("POST /v1/spaces/{spaceId}/content/import", authed, s.importContent)
	s.handle("POST /v1/spaces/{spaceId}/content/page/{pageId}/import", authed, s.importContent)
	s.handle("POST /v1/spaces/{spaceId}/content/template", authed, s.applyTemplate)

	// OpenAPI specifications (docs/openapi.md).
	s.handle("GET /v1/orgs/{organizationId}/openapi", authed, s.listOpenAPISpecs)
	s.handle("POST /v1/orgs/{organizationId}/openapi", authed, s.createOpenAPISpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}", authed, s.getOpenAPISpec)
	s.handle("PUT /v1/orgs/{organizationId}/openapi/{specSlug}", authed, s.putOpenAPISpec)
	s.handle("PATCH /v1/orgs/{organizationId}/openapi/{specSlug}", authed, s.patchOpenAPISpec)
	s.handle("DELETE /v1/orgs/{organizationId}/openapi/{specSlug}", authed, s.deleteOpenAPISpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions", authed, s.listOpenAPIVersions)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest", authed, s.getOpenAPIVersion)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", authed, s.getOpenAPIVersion)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", authed, s.getOpenAPIVersionContent)
	s.handle("GET /v1/openapi/{specId}/versions/{versionId}/raw", optionalAuth, s.rawOpenAPIVersion) // folio: the raw specification

	// Translations (docs/translations.md).
	s.handle("GET /v1/orgs/{organizationId}/translations", authed, s.listTranslations)
	s.handle("POST /v1/orgs/{organizationId}/translations", authed, s.createTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations/{translationId}", authed, s.getTranslation)
	s.handle("PUT /v1/orgs/{organizationId}/translations/{translationId}", authed, s.updateTranslation)
	s.handle("DELETE /v1/orgs/{organizationId}/translations/{translationId}", authed, s.deleteTranslation)
	s.handle("POST /v1/orgs/{organizationId}/translations/{translationId}/run", authed, s.runTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary", authed, s.listGlossaryEntries)
	s.handle("PUT /v1/orgs/{organizationId}/translations-glossary", authed, s.updateGlossaryEntries)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}", authed, s.getGlossaryEntry)

	// The audit log (folio; docs/operations.md).
	s.handle("GET /v1/orgs/{organizationId}/audit-log", authed, s.listAuditLog)

	// Webhooks (folio; docs/webhooks.md).
	s.handle("GET /v1/orgs/{organizationId}/webhooks", authed, s.listWebhooks)
	s.handle("POST /v1/orgs/{organizationId}/webhooks", authed, s.createWebhook)
	s.handle("GET /v1/orgs/{organizationId}/webhooks/{webhookId}", authed, s.getWebhook)
	s.handle("PATCH /v1/orgs/{organizationId}/webhooks/{webhookId}", authed, s.updateWebhook)
	s.handle("DELETE /v1/orgs/{organizationId}/webhooks/{webhookId}", authed, s.deleteWebhook)
	s.handle("GET /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries", authed, s.listWebhookDeliveries)
	s.handle("POST /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", authed, s.redeliverWebhook)

	// Integrations (docs/integrations.md).
	s.handle("GET /v1/integrations", authed, s.listIntegrations)
	s.handle("GET /v1/integrations/{integrationName}", authed, s.getIntegration)
	s.handle("POST /v1/integrations/{integrationName}", authed, s.publishIntegration)
	s.handle("DELETE /v1/integrations/{integrationName}", authed, s.unpublishIntegration)
	s.handle("GET /v1/integrations/{integrationName}/assets/{file}", public, s.integrationAsset) // folio: icons and previews
	s.handle("GET /v1/orgs/{organizationId}/integrations", authed, s.listOrganizationIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/installations", authed, s.listOrganizationInstallations)
	s.handle("GET /v1/orgs/{organizationId}/integrations/installations-status", authed, s.listOrganizationIntegrationsStatus)
	s.handle("GET /v1/spaces/{spaceId}/integrations", authed, s.listSpaceIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/integrations", authed, s.listSiteIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/integrations/{integrationName}/installation_status", authed, s.getOrganizationIntegrationStatus)
	s.handle("PUT /v1/integrations/{integrationName}/dev", authed, s.setIntegrationDev)
	s.handle("DELETE /v1/integrations/{integrationName}/dev", authed, s.disableIntegrationDev)
	s.handle("POST /v1/integrations/{integrationName}/render", authed, s.renderIntegrationUI)
	s.handle("GET /v1/integrations/{integrationName}/events", authed, s.listIntegrationEvents)
	s.handle("GET /v1/integrations/{integrationName}/events/{eventId}", authed, s.getIntegrationEvent)
	inst := "/v1/integrations/{integrationName}/installations"
	s.handle("GET "+inst, authed, s.listInstallations)
	s.handle("POST "+inst, authed, s.installIntegration)
	s.handle("GET "+inst+"/{installationId}", authed, s.getInstallation)
	s.handle("PATCH "+inst+"/{installationId}", authed, s.updateInstallation)
	s.handle("DELETE "+inst+"/{installationId}", authed, s.uninstallIntegration)
	s.handle("POST "+inst+"/{installationId}/tokens", authed, s.createInstallationToken)
	s.handle("GET "+inst+"/{installationId}/sites/{siteId}/script.js", public, s.integrationSiteScript)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/integration-scripts", authed, s.listSiteIntegrationScripts)
	for _, k := range []struct{ kind, plural, param string }{
		{folio.InstallOnSpace, "spaces", "{spaceId}"}, {folio.InstallOnSite, "sites", "{siteId}"}} {
		s.handle("GET /v1/integrations/{integrationName}/"+k.plural, authed, s.listTargetInstallations(k.kind))
		s.handle("GET "+inst+"/{installationId}/"+k.plural, authed, s.listTargetInstallations(k.kind))
		s.handle("POST "+inst+"/{installationId}/"+k.plural, authed, s.installOnTarget(k.kind))
		s.handle("GET "+inst+"/{installationId}/"+k.plural+"/"+k.param, authed, s.getTargetInstallation)
		s.handle("PATCH "+inst+"/{installationId}/"+k.plural+"/"+k.param, authed, s.updateTargetInstallation)
		s.handle("DELETE "+inst+"/{installationId}/"+k.plural+"/"+k.param, authed, s.uninstallFromTarget)
	}

	// Public endpoints (urls.publicEndpoint): any method, reached without
	// a token, limited per installation; the integration's script answers.
	for _, k := range []struct{ kind, base string }{{"", "/v1/integrations/{integrationName}"}, {"", inst + "/{installationId}"},
		{folio.InstallOnSpace, inst + "/{installationId}/spaces/{spaceId}"}, {folio.InstallOnSite, inst + "/{installationId}/sites/{siteId}"}} {
		s.handle(k.base+"/public", endpoint, s.publicEndpoint(k.kind))
		s.handle(k.base+"/public/{path...}", endpoint, s.publicEndpoint(k.kind))
	}

	// Git sync (docs/gitsync.md).
	s.handle("POST /v1/spaces/{spaceId}/git/import", authed, s.importGitRepository)
	s.handle("POST /v1/spaces/{spaceId}/git/export", authed, s.exportToGitRepository)
	s.handle("GET /v1/spaces/{spaceId}/git/info", authed, s.getSpaceGitInfo)
	s.handle("DELETE /v1/spaces/{spaceId}/git/legacy-installation", authed, s.deleteLegacyGitInstallation)
	s.handle("GET /v1/spaces/{spaceId}/search", authed, s.searchSpaceContent)
	s.handle("GET /v1/orgs/{organizationId}/search", authed, s.searchOrganizationContent)
	s.handle("GET /v1/spaces/{spaceId}/links", authed, s.listLinks)
	s.handle("GET /v1/spaces/{spaceId}/content/page/{pageId}/links", authed, s.listLinks)
	s.handle("GET /v1/spaces/{spaceId}/content/page/{pageId}/backlinks", authed, s.listBacklinks)
	s.handle("GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks", authed, s.listBacklinks)

	// Permissions of spaces and collections.
	for _, k := range []struct{ kind, base, param string }{
		{folio.TargetSpace, "/v1/spaces/{spaceId}", "spaceId"},
		{folio.TargetCollection, "/v1/collections/{collectionId}", "collectionId"},
	} {
		s.handle("POST "+k.base+"/permissions", authed, s.inviteToContent(k.kind))
		s.handle("GET "+k.base+"/permissions/users", authed, s.listUserPermissions(k.kind))
		s.handle("PATCH "+k.base+"/permissions/users/{userId}", authed, s.updatePermission(k.kind, folio.PrincipalUser, "userId"))
		s.handle("DELETE "+k.base+"/permissions/users/{userId}", authed, s.removePermission(k.kind, folio.PrincipalUser, "userId"))
		s.handle("GET "+k.base+"/permissions/teams", authed, s.listTeamPermissions(k.kind))
		s.handle("PATCH "+k.base+"/permissions/teams/{teamId}", authed, s.updatePermission(k.kind, folio.PrincipalTeam, "teamId"))
		s.handle("DELETE "+k.base+"/permissions/teams/{teamId}", authed, s.removePermission(k.kind, folio.PrincipalTeam, "teamId"))
	}

	// Teams.
	s.handle("GET /v1/orgs/{organizationId}/teams", authed, s.listTeamsInOrganizationByID)
	s.handle("PUT /v1/orgs/{organizationId}/teams", authed, s.createOrganizationTeam)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}", authed, s.getTeamInOrganizationByID)
	s.handle("PATCH /v1/orgs/{organizationId}/teams/{teamId}", authed, s.updateTeamInOrganizationByID)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}", authed, s.removeTeamFromOrganizationByID)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}/members", authed, s.listTeamMembersInOrganizationByID)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members", authed, s.updateMembersInOrganizationTeam)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", authed, s.addMemberToOrganizationTeamByID)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", authed, s.deleteMemberFromOrganizationTeamByID)

	// Change requests. The content of a change request is read with the
	// space's content handlers on the change request's head.
	const cr = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	s.handle("POST /v1/spaces/{spaceId}/change-requests", authed, s.createChangeRequest)
	s.handle("GET /v1/spaces/{spaceId}/change-requests", authed, s.listChangeRequestsForSpace)
	s.handle("GET /v1/orgs/{organizationId}/change-requests", authed, s.listChangeRequestsForOrganization)
	s.handle("GET "+cr, authed, s.getChangeRequestByID)
	s.handle("PATCH "+cr, authed, s.updateChangeRequestByID)
	s.handle("POST "+cr+"/merge", authed, s.mergeChangeRequest)
	s.handle("POST "+cr+"/update", authed, s.updateChangeRequest)
	s.handle("GET "+cr+"/changes", authed, s.getChangeRequestChanges)
	s.handle("GET "+cr+"/contributors", authed, s.getContributorsByChangeRequestID)
	s.handle("GET "+cr+"/content", authed, s.inChangeRequest(s.getRevision))
	s.handle("GET "+cr+"/content/pages", authed, s.inChangeRequest(s.listPages))
	s.handle("GET "+cr+"/content/page/{pageId}", authed, s.inChangeRequest(s.getPage))
	s.handle("GET "+cr+"/content/path/{pagePath...}", authed, s.inChangeRequest(s.getPage))
	s.handle("GET "+cr+"/content/files", authed, s.inChangeRequest(s.listFiles))
	s.handle("GET "+cr+"/content/files/{fileId}", authed, s.inChangeRequest(s.getFile))
	s.handle("POST "+cr+"/content/import", authed, s.importContentInChangeRequest)
	s.handle("POST "+cr+"/content/page/{pageId}/import", authed, s.importContentInChangeRequest)
	s.handle("GET "+cr+"/links", authed, s.listChangeRequestLinks)
	s.handle("GET "+cr+"/content/page/{pageId}/links", authed, s.listChangeRequestLinks)
	s.handle("GET "+cr+"/content/page/{pageId}/backlinks", authed, s.listChangeRequestBacklinks)
	s.handle("GET "+cr+"/content/files/{fileId}/backlinks", authed, s.listChangeRequestBacklinks)
	s.handle("GET "+cr+"/reviews", authed, s.getReviewsByChangeRequestID)
	s.handle("POST "+cr+"/reviews", authed, s.submitChangeRequestReview)
	s.handle("GET "+cr+"/requested-reviewers", authed, s.getRequestedReviewersByChangeRequestID)
	s.handle("POST "+cr+"/requested-reviewers", authed, s.requestReviewersForChangeRequest)
	s.handle("DELETE "+cr+"/requested-reviewers/{userId}", authed, s.removeRequestedReviewerFromChangeRequest)

	// Comments: of the space's main content and of each change request
	// (named by id or number), with the same handlers. The operationIds are
	// listCommentsInSpace, postCommentInSpace, getCommentInSpace,
	// updateCommentInSpace, deleteCommentInSpace, listCommentRepliesInSpace,
	// postCommentReplyInSpace, getCommentReplyInSpace,
	// updateCommentReplyInSpace, deleteCommentReplyInSpace and
	// listCommentersInSpace, and the same ending in InChangeRequest.
	for _, base := range []string{"/v1/spaces/{spaceId}", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"} {
		c := base + "/comments"
		s.handle("GET "+c, authed, s.listComments)
		s.handle("POST "+c, authed, s.postComment)
		s.handle("GET "+c+"/{commentId}", authed, s.getComment)
		s.handle("PUT "+c+"/{commentId}", authed, s.updateComment)
		s.handle("DELETE "+c+"/{commentId}", authed, s.deleteComment)
		s.handle("GET "+c+"/{commentId}/replies", authed, s.listCommentReplies)
		s.handle("POST "+c+"/{commentId}/replies", authed, s.postCommentReply)
		s.handle("GET "+c+"/{commentId}/replies/{commentReplyId}", authed, s.getCommentReply)
		s.handle("PUT "+c+"/{commentId}/replies/{commentReplyId}", authed, s.updateCommentReply)
		s.handle("DELETE "+c+"/{commentId}/replies/{commentReplyId}", authed, s.deleteCommentReply)
		s.handle("GET "+base+"/commenters", authed, s.listCommenters)
	}

	// Sites.
	const site = "/v1/orgs/{organizationId}/sites/{siteId}"
	s.handle("GET /v1/orgs/{organizationId}/sites", authed, s.listSites)
	s.handle("POST /v1/orgs/{organizationId}/sites", authed, s.createSite)
	s.handle("GET "+site, authed, s.getSiteByID)
	s.handle("PATCH "+site, authed, s.updateSiteByID)
	s.handle("DELETE "+site, authed, s.deleteSiteByID)
	s.handle("POST "+site+"/publish", authed, s.publishSite(true))
	s.handle("POST "+site+"/unpublish", authed, s.publishSite(false))
	s.handle("GET "+site+"/published", authed, s.getPublishedContentSite)
	s.handle("POST "+site+"/search", authed, s.searchSiteContent)
	s.handle("POST "+site+"/ask", authed, s.streamAskInSite)
	s.handle("GET "+site+"/ask/questions", authed, s.streamRecommendedQuestionsInSite)
	s.handle("GET "+site+"/share-links", authed, s.listSiteShareLinks)
	s.handle("POST "+site+"/share-links", authed, s.createSiteShareLink)
	s.handle("PATCH "+site+"/share-links/{shareLinkId}", authed, s.updateSiteShareLinkByID)
	s.handle("DELETE "+site+"/share-links/{shareLinkId}", authed, s.deleteSiteShareLinkByID)
	s.handle("POST "+site+"/redirects", authed, s.createSiteRedirect)
	s.handle("GET "+site+"/redirects", authed, s.listSiteRedirects)
	s.handle("PATCH "+site+"/redirects/{siteRedirectId}", authed, s.updateSiteRedirectByID)
	s.handle("DELETE "+site+"/redirects/{siteRedirectId}", authed, s.deleteSiteRedirectByID)
	s.handle("GET "+site+"/redirect", authed, s.getSiteRedirectBySource)
	s.handle("GET "+site+"/customization", authed, s.getSiteCustomizationByID)
	s.handle("PUT "+site+"/customization", authed, s.updateSiteCustomizationByID)
	s.handle("GET "+site+"/site-spaces/{siteSpaceId}/customization", authed, s.getSiteSpaceCustomizationByID)
	s.handle("PATCH "+site+"/site-spaces/{siteSpaceId}/customization", authed, s.overrideSiteSpaceCustomizationByID)
	s.handle("DELETE "+site+"/site-spaces/{siteSpaceId}/customization", authed, s.deleteSiteSpaceCustomizationByID)

	// Site structure.
	const structure = "/v1/orgs/{organizationId}/sites/{siteId}"
	s.handle("GET "+structure+"/structure", authed, s.getSiteStructure)
	s.handle("PATCH "+structure+"/structure/sort", authed, s.sortSiteStructure)
	s.handle("GET "+structure+"/sections", authed, s.listSiteSections)
	s.handle("POST "+structure+"/sections", authed, s.addSectionToSite)
	s.handle("PATCH "+structure+"/sections/{siteSectionId}", authed, s.updateSiteSectionByID)
	s.handle("DELETE "+structure+"/sections/{siteSectionId}", authed, s.deleteSiteSectionByID)
	s.handle("POST "+structure+"/sections/{siteSectionId}/move", authed, s.moveSiteSection)
	s.handle("GET "+structure+"/site-spaces", authed, s.listSiteSpacesOfSite)
	s.handle("POST "+structure+"/site-spaces", authed, s.addSpaceToSite)
	s.handle("PATCH "+structure+"/site-spaces/{siteSpaceId}", authed, s.updateSiteSpaceByID)
	s.handle("DELETE "+structure+"/site-spaces/{siteSpaceId}", authed, s.deleteSiteSpaceByID)
	s.handle("POST "+structure+"/site-spaces/{siteSpaceId}/move", authed, s.moveSiteSpace)
	s.handle("GET "+structure+"/section-groups", authed, s.listSiteSectionGroups)
	s.handle("POST "+structure+"/section-groups", authed, s.addSectionGroupToSite)
	s.handle("PATCH "+structure+"/section-groups/{siteSectionGroupId}", authed, s.updateSiteSectionGroupByID)
	s.handle("DELETE "+structure+"/section-groups/{siteSectionGroupId}", authed, s.deleteSiteSectionGroupByID)
	s.handle("POST "+structure+"/section-groups/{siteSectionGroupId}/sections", authed, s.addSectionToGroup)
	s.handle("DELETE "+structure+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", authed, s.removeSectionFromGroup)
	s.handle("POST "+structure+"/section-groups/{siteSectionGroupId}/move", authed, s.moveSiteSectionGroup)
	s.handle("GET "+structure+"/adaptive-schema", authed, s.getSiteAdaptiveSchema)
	s.handle("PUT "+structure+"/adaptive-schema", authed, s.updateSiteAdaptiveSchema)
	s.handle("GET "+structure+"/adaptive-schema/template-conditions", authed, s.listSiteAdaptiveTemplateConditions)

	// Visitor authentication of a site.
	s.handle("GET "+site+"/publishing/auth", authed, s.getSitePublishingAuthByID)
	s.handle("PATCH "+site+"/publishing/auth", authed, s.updateSitePublishingAuthByID)
	s.handle("POST "+site+"/publishing/auth/regenerate", authed, s.regenerateSitePublishingAuthByID)

	// Site content API.
	s.handle("POST /v1/urls/published", public, s.resolvePublishedContentByURL)
	// urls.app links (of organizations, collections, spaces, OpenAPI
	// specifications and integrations) are the web application's pages
	// (internal/web, mounted in server.go).
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content", authed, s.getOpenAPIVersionContent)
}
