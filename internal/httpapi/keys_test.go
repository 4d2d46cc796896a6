package httpapi_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/google/go-cmp/cmp"
)

// keysMarkdown is a page whose headings repeat and whose ordered list
// GitBook's renderer numbers by block key.
const keysMarkdown = "# Setup\n\nIntro text.\n\n## Install\n\n1. Download\n2. Unpack\n3. Run\n\n## Install\n\nAgain, with `code`.\n"

// keysDocument is keysMarkdown's document as the API answers it, keys
// written <key>.
const keysDocument = `{"object":"document","data":{},"nodes":[
 {"object":"block","type":"paragraph","key":"<key>","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Intro text.","marks":[]}]}]},
 {"object":"block","type":"heading-2","key":"<key>","data":{},"meta":{"id":"install"},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Install","marks":[]}]}]},
 {"object":"block","type":"list-ordered","key":"<key>","data":{},"nodes":[
  {"object":"block","type":"list-item","key":"<key>","data":{},"nodes":[{"object":"block","type":"paragraph","key":"<key>","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Download","marks":[]}]}]}]},
  {"object":"block","type":"list-item","key":"<key>","data":{},"nodes":[{"object":"block","type":"paragraph","key":"<key>","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Unpack","marks":[]}]}]}]},
  {"object":"block","type":"list-item","key":"<key>","data":{},"nodes":[{"object":"block","type":"paragraph","key":"<key>","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Run","marks":[]}]}]}]}]},
 {"object":"block","type":"heading-2","key":"<key>","data":{},"meta":{"id":"install-1"},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Install","marks":[]}]}]},
 {"object":"block","type":"paragraph","key":"<key>","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Again, with ","marks":[]},{"object":"leaf","text":"code","marks":[{"object":"mark","type":"code"}]},{"object":"leaf","text":".","marks":[]}]}]}]}`

// keyPattern is the shape of keys: Folio's, like GitBook's, or the keys
// the Markdown import gives the blocks whose Markdown it keeps
// (markdown.RawKeyPrefix and a digest of the source).
var keyPattern = regexp.MustCompile(`^([0-9A-Za-z]{12}|md-[0-9a-f]{12}(-[0-9]+)?)$`)

// documentKeys checks that every block and inline of a document body has a
// key shaped like GitBook's, unique in the document, and returns the body
// with keys written <key> and the keys in document order.
func documentKeys(t testing.TB, body []byte) (any, []string) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("document %s: %v", body, err)
	}
	var keys []string
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			if o := v["object"]; o == "block" || o == "inline" {
				k, _ := v["key"].(string)
				if !keyPattern.MatchString(k) || seen[k] {
					t.Fatalf("%s %v: key %q (repeated: %v) in %s", o, v["type"], k, seen[k], body)
				}
				seen[k] = true
				keys = append(keys, k)
				v["key"] = "<key>"
			}
			walk(v["nodes"])
			walk(v["fragments"])
		}
	}
	walk(v)
	return v, keys
}

func wantDocument(t testing.TB, body []byte, want string) []string {
	t.Helper()
	got, keys := documentKeys(t, body)
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Fatalf("document (-want +got):\n%s", diff)
	}
	return keys
}

// pageDocument reads the document of the only top-level page of a space's
// current revision, with its id.
func pageDocument(t testing.TB, s *apitest.Server, token, space string) (pageID string, body []byte) {
	t.Helper()
	var pages struct{ Pages []pageBody }
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
	if len(pages.Pages) != 1 {
		t.Fatalf("pages %+v", pages.Pages)
	}
	rev := currentRevision(t, s, token, space)
	r := s.Do(t, token, "GET", "/v1/spaces/"+space+"/revisions/"+rev+"/page/"+pages.Pages[0].ID+"/document", nil).WantStatus(t, 200)
	return pages.Pages[0].ID, r.Body
}

// TestBlockKeys follows the keys of a page's blocks: given on import, read
// the same through the member API and the site content API (as GitBook's
// renderer reads them), kept by a Markdown round trip, by an edit and by a
// change request's merge.
func TestBlockKeys(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, space, "", "markdown", []byte(keysMarkdown))
		pageID, body := pageDocument(t, s, admin, space)
		keys := wantDocument(t, body, keysDocument)

		// The renderer's read, with a site token and its options.
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{space}})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+st.ID+"/publish", nil).WantStatus(t, 200)
		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken
		rev := currentRevision(t, s, admin, space)
		r := s.Do(t, tok, "GET", "/v1/spaces/"+space+"/revisions/"+rev+"/page/"+pageID+
			"/document?evaluated=deterministic-only&dereferenced=reusable-contents", nil).WantStatus(t, 200)
		if string(r.Body) != string(body) {
			t.Fatalf("site token read:\n%s\nmember read:\n%s", r.Body, body)
		}

		t.Run("MarkdownRoundTripKeepsEveryKey", func(t *testing.T) {
			var p pageBody
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+pageID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
			importInto(t, s, admin, space, pageID, "markdown", []byte(*p.Markdown))
			_, again := pageDocument(t, s, admin, space)
			if string(again) != string(body) {
				t.Fatalf("after a Markdown round trip:\n%s\nbefore:\n%s", again, body)
			}
		})

		t.Run("EditKeepsTheKeysOfSurvivingBlocks", func(t *testing.T) {
			// The intro edited, a fourth list item, the rest as it was.
			edited := "# Setup\n\nIntro text, edited.\n\n## Install\n\n1. Download\n2. Unpack\n3. Run\n4. Check\n\n## Install\n\nAgain, with `code`.\n"
			importInto(t, s, admin, space, pageID, "markdown", []byte(edited))
			_, got := pageDocument(t, s, admin, space)
			_, after := documentKeys(t, got)
			want := append(append(append([]string{}, keys[:9]...), after[9], after[10]), keys[9:]...)
			if diff := cmp.Diff(want, after); diff != "" {
				t.Fatalf("keys after the edit (-want +got):\n%s", diff)
			}
			keys = after
		})

		t.Run("MergeKeepsKeys", func(t *testing.T) {
			cr := newCR(t, s, admin, space, "Edit")
			changed := "# Setup\n\nIntro text, edited.\n\n## Install\n\n1. Download\n2. Unpack\n3. Run\n4. Check\n\n## Install\n\nAgain, with `code` and more.\n"
			s.Do(t, admin, "POST", crPath(space, cr)+"/content/page/"+pageID+"/import",
				map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte(changed))}).WantStatus(t, 201)
			s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200)
			_, got := pageDocument(t, s, admin, space)
			_, after := documentKeys(t, got)
			if diff := cmp.Diff(keys, after); diff != "" {
				t.Fatalf("keys after the merge (-want +got):\n%s", diff)
			}
		})

		t.Run("TemplatePagesHaveKeys", func(t *testing.T) {
			sp := newSpace(t, s, admin, org, "Product")
			s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/content/template", map[string]any{"id": "product-docs"}).WantStatus(t, 204)
			var pages struct{ Pages []pageBody }
			s.Do(t, admin, "GET", "/v1/spaces/"+sp+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
			rev := currentRevision(t, s, admin, sp)
			n := 0
			var walk func(ps []pageBody)
			walk = func(ps []pageBody) {
				for _, p := range ps {
					walk(p.Pages)
					if p.Type != "document" {
						continue
					}
					r := s.Do(t, admin, "GET", "/v1/spaces/"+sp+"/revisions/"+rev+"/page/"+p.ID+"/document", nil).WantStatus(t, 200)
					_, keys := documentKeys(t, r.Body)
					n += len(keys)
				}
			}
			walk(pages.Pages)
			if n == 0 {
				t.Fatal("the template's pages hold no block")
			}
		})

		t.Run("IdenticalImportsShareTheirDocument", func(t *testing.T) {
			other := newSpace(t, s, admin, org, "Copy")
			importInto(t, s, admin, other, "", "markdown", []byte(keysMarkdown))
			_, a := pageDocument(t, s, admin, other)
			if string(a) != string(body) {
				t.Fatalf("the same Markdown imported again:\n%s\nfirst:\n%s", a, body)
			}
		})
	})
}

// TestKeylessStoredDocumentsReadWithKeys stores a document as Folio did
// before keys (no key, no heading anchor) and checks that every read gives
// it the same keys and anchors, and that the next write of its page stores
// them.
func TestKeylessStoredDocumentsReadWithKeys(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, space, "", "markdown", []byte(keysMarkdown))
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &me)
		legacy := storeKeyless(t, s, folio.ID(space), folio.ID(me.ID))

		pageID, body := pageDocument(t, s, admin, space)
		keys := wantDocument(t, body, keysDocument)
		for range 2 {
			if _, again := pageDocument(t, s, admin, space); string(again) != string(body) {
				t.Fatalf("a keyless document read twice:\n%s\n%s", body, again)
			}
		}
		r := s.Do(t, admin, "GET", "/v1/spaces/"+space+"/documents/"+legacy.String(), nil).WantStatus(t, 200)
		if string(r.Body) != string(body) {
			t.Fatalf("getDocumentById:\n%s\npage read:\n%s", r.Body, body)
		}

		// The next write of the page keeps the keys readers saw, stored.
		edited := "# Setup\n\nIntro text.\n\n## Install\n\n1. Download\n2. Unpack\n3. Run\n\n## Install\n\nAgain, with `code`, edited.\n"
		importInto(t, s, admin, space, pageID, "markdown", []byte(edited))
		_, got := pageDocument(t, s, admin, space)
		if _, after := documentKeys(t, got); !cmp.Equal(keys, after) {
			t.Fatalf("keys after the first write %v, read before %v", after, keys)
		}
		var pages struct{ Pages []pageBody }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		stored := storedObject(t, s, pages.Pages[0].DocumentID)
		if !content.KeyedJSON(stored) {
			t.Fatalf("the written document is stored without its keys: %s", stored)
		}
	})
}

// storeKeyless makes a new current revision of a space of one page in which
// the page's document is stored without keys or anchors, as before they
// existed, and returns the document's hash.
func storeKeyless(t testing.TB, s *apitest.Server, spaceID, userID folio.ID) content.Hash {
	t.Helper()
	ctx := context.Background()
	db := s.OpenDB(t)
	var h content.Hash
	err := db.Write(ctx, func(tx *store.Tx) error {
		sp, err := store.GetSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		rev, err := store.GetRevision(ctx, tx, sp.ID, sp.Revision)
		if err != nil {
			return err
		}
		root, err := content.ParseHash(rev.TreeHash)
		if err != nil {
			return err
		}
		fetch := func(hs []content.Hash) (map[content.Hash][]byte, error) {
			keys := make([]string, len(hs))
			for i, h := range hs {
				keys[i] = h.String()
			}
			got, err := store.GetObjects(ctx, tx, keys)
			if err != nil {
				return nil, err
			}
			out := map[content.Hash][]byte{}
			for _, h := range hs {
				out[h] = got[h.String()].Data
			}
			return out, nil
		}
		tree, err := content.LoadTree(root, fetch)
		if err != nil {
			return err
		}
		got, err := fetch([]content.Hash{tree.Pages[0].Document})
		if err != nil {
			return err
		}
		var d content.Document
		if err := d.UnmarshalJSON(got[tree.Pages[0].Document]); err != nil {
			return err
		}
		var strip func(nodes []content.Node)
		strip = func(nodes []content.Node) {
			for i := range nodes {
				nodes[i].Key, nodes[i].Meta = "", nil
				strip(nodes[i].Nodes)
			}
		}
		strip(d.Nodes)
		o, err := content.DocumentObject(&d)
		if err != nil {
			return err
		}
		h = o.Hash
		p := tree.Pages[0].Clone()
		p.Document = o.Hash
		next := &content.Tree{Pages: []*content.Page{p}, Files: tree.Files, Variables: tree.Variables}
		objs := []store.Object{{Hash: o.Hash.String(), Kind: o.Kind, Data: o.Data}}
		for _, o := range content.TreeObjects(nil, next) {
			objs = append(objs, store.Object{Hash: o.Hash.String(), Kind: o.Kind, Data: o.Data})
		}
		if err := store.PutObjects(ctx, tx, objs, tx.Now); err != nil {
			return err
		}
		id := folio.NewID()
		if err := store.CreateRevision(ctx, tx, &folio.Revision{ID: id, SpaceID: sp.ID, TreeHash: next.Hash().String(),
			Parents: []folio.ID{sp.Revision}, Type: folio.RevisionEdits, CreatedBy: userID}); err != nil {
			return err
		}
		return store.SetSpaceRevision(ctx, tx, sp.ID, sp.Revision, id)
	})
	if err != nil {
		t.Fatal(err)
	}
	if content.KeyedJSON(storedObject(t, s, h.String())) {
		t.Fatal("the legacy document has keys")
	}
	return h
}

func storedObject(t testing.TB, s *apitest.Server, hash string) []byte {
	t.Helper()
	ctx := context.Background()
	var b []byte
	err := s.OpenDB(t).Read(ctx, func(tx *store.Tx) error {
		got, err := store.GetObjects(ctx, tx, []string{hash})
		b = got[hash].Data
		return err
	})
	if err != nil || b == nil {
		t.Fatalf("object %s: %v", hash, err)
	}
	return b
}
