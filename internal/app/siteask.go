package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// MaxAskQuestion bounds the question of streamAskInSite (the reference's
// maxLength).
const MaxAskQuestion = 512

// CheckSiteAsk authorizes the AI routes of a site (streamAskInSite,
// streamRecommendedQuestionsInSite), which Folio answers with no answer
// and no questions: whoever reads the site's published content may call
// them (a site token of that site, a member, or anyone for a published
// public site); NotFound otherwise. question is checked when ask is set
// (Invalid).
func (a *App) CheckSiteAsk(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, ask bool, question string) error {
	if ask && (question == "" || len([]rune(question)) > MaxAskQuestion) {
		return folio.FieldErrorf("question", "question must be 1 to %d characters", MaxAskQuestion)
	}
	return a.db.Read(ctx, func(tx *store.Tx) error {
		_, err := readableSite(ctx, tx, caller, orgID, siteID, "")
		return err
	})
}
