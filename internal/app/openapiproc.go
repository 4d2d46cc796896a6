package app

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/openapi"
)

// processedSpec is a processed specification: its files as the renderer
// reads them (JSON), their hash, and the problems validation found.
type processedSpec struct {
	filesystem string
	hash       string
	problems   []folio.OpenAPIProblem
}

// processOpenAPI parses, bundles and validates an entry document; its
// external relative references are fetched through the guarded client.
func (a *App) processOpenAPI(ctx context.Context, entry []byte, entryURL string) (*processedSpec, error) {
	fetch := func(ctx context.Context, u string) ([]byte, error) {
		b, err := a.fetchOpenAPI(ctx, u)
		var fe *openAPIFetchError
		if errors.As(err, &fe) && fe.code == folio.OpenAPIFetchTimeout {
			return nil, errors.Join(openapi.ErrTimeout, err)
		}
		return b, err
	}
	res, err := openapi.Process(ctx, entry, entryURL, fetch, openapi.Limits{})
	if err != nil {
		return nil, err
	}
	fs, err := json.Marshal(res.Filesystem)
	if err != nil {
		return nil, err
	}
	out := &processedSpec{filesystem: string(fs), hash: res.Hash}
	for i, p := range res.Problems {
		if i == folio.MaxOpenAPIProblems {
			break
		}
		out.problems = append(out.problems, folio.OpenAPIProblem{Message: p.Message, Code: p.Code})
	}
	return out, nil
}

// openAPIErrorOf is the code and problems recorded for a failed
// processing.
func openAPIErrorOf(err error) (string, []folio.OpenAPIProblem) {
	var fe *openAPIFetchError
	if errors.As(err, &fe) {
		return fe.code, []folio.OpenAPIProblem{{Message: fe.msg, Code: fe.code}}
	}
	var pe *openapi.Error
	if errors.As(err, &pe) {
		out := []folio.OpenAPIProblem{{Message: pe.Message, Code: pe.Code}}
		return pe.Code, out
	}
	return folio.OpenAPIParseError, []folio.OpenAPIProblem{{Message: "the specification could not be processed", Code: folio.OpenAPIParseError}}
}
