package httpapi

import (
	"context"
	"net/url"
)

// publishedSpace is where a signed-out visitor of a space's urls.app link
// reads it: the same page on a public site that publishes the space
// (internal/web sends other visitors to sign in).
func (s *Server) publishedSpace(ctx context.Context, spaceID, rest string) (string, bool) {
	p, err := s.app.FindPublicSpace(ctx, spaceID)
	if err != nil {
		return "", false
	}
	target := s.urls.SiteSpacePublished(p.Site, p.SiteSpace)
	if rest != "" {
		target += "/" + (&url.URL{Path: rest}).EscapedPath()
	}
	return target, true
}
