package web

// routes is the application's index of pages and forms.
func (h *Handler) routes() {
	h.handle("GET /assets/{name}", anyone, h.serveAsset)
	h.handle("GET /assets/editor/{name}", anyone, h.serveEditorAsset)

	// Signing in and out.
	h.handle("GET /signin", anyone, h.signInPage)
	h.handle("POST /signin", anyone, h.signIn)
	h.handle("GET /signin/link/{token}", anyone, h.linkPage)
	h.handle("POST /signin/link", anyone, h.signInWithLink)
	h.handle("GET /signin/sso/{org}/{provider}", anyone, h.ssoStart)
	h.handle("POST /signout", signedIn, h.signOut)
	h.handle("GET /account", signedIn, h.account)
	h.handle("POST /account/password", signedIn, h.changePassword)

	// Home, organizations and collections (the urls.app links /o/ and /c/).
	h.handle("GET /{$}", signedIn, h.home)
	h.handle("GET /o/{org}", signedIn, h.org)
	h.handle("GET /o/{org}/{rest...}", signedIn, h.org)
	h.handle("GET /c/{collection}", signedIn, h.collection)
	h.handle("GET /c/{collection}/{rest...}", signedIn, h.collection)

	// A space (/s/ links): its pages, change requests, history, comments.
	h.handle("GET /s/{space}", signedIn, h.spacePage)
	h.handle("GET /s/{space}/{rest...}", signedIn, h.spacePage)
	h.handle("GET /s/{space}/~/pages/{page}", signedIn, h.pageByID)
	h.handle("POST /s/{space}/~/pages", signedIn, h.createPage)
	h.handle("POST /s/{space}/~/pages/{page}/{action}", signedIn, h.pageAction)
	h.handle("GET /s/{space}/~/pages/{page}/edit", signedIn, h.editPage)
	h.handle("POST /s/{space}/~/pages/{page}/document", signedIn, h.saveDocument)
	h.handle("POST /s/{space}/~/files", signedIn, h.uploadFile)
	h.handle("GET /s/{space}/~/changes", signedIn, h.changeRequests)
	h.handle("GET /s/{space}/~/changes/{number}", signedIn, h.changeRequest)
	h.handle("GET /s/{space}/~/changes/{number}/pages/{page}/edit", signedIn, h.editInChangeRequest)
	h.handle("GET /s/{space}/~/changes/{number}/edit", signedIn, h.editInChangeRequest)
	h.handle("POST /s/{space}/~/changes", signedIn, h.createChangeRequest)
	h.handle("POST /s/{space}/~/changes/{number}/review", signedIn, h.reviewChangeRequest)
	h.handle("POST /s/{space}/~/changes/{number}/merge", signedIn, h.mergeChangeRequest)
	h.handle("POST /s/{space}/~/changes/{number}/pages/{page}/document", signedIn, h.saveDocument)
	h.handle("POST /s/{space}/~/changes/{number}/files", signedIn, h.uploadFile)
	h.handle("GET /s/{space}/~/revisions", signedIn, h.history)
	h.handle("GET /s/{space}/~/revisions/{revision}", signedIn, h.revision)
	h.handle("GET /s/{space}/~/comments", signedIn, h.comments)
	h.handle("POST /s/{space}/~/comments", signedIn, h.postComment)
	h.ssoRoutes()
	h.peopleRoutes()
	h.extendRoutes()
	h.historyRoutes()
	h.sitesRoutes()
	h.commentsRoutes()
	h.crPagesRoutes()
	h.flowRoutes()
	h.customRoutes()
	h.editMarkdownRoutes()
	h.inviteRoutes()
}
