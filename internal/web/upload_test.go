package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// postFile posts bytes as the edit view's uploadFile does: the body, its
// type in Content-Type, its name in ?name=, the CSRF token in X-CSRF-Token
// (csrf "" sends none).
func (b *browser) postFile(t *testing.T, path, name, typ string, data []byte, csrf string) page {
	t.Helper()
	req, _ := http.NewRequest("POST", b.s.URL+path+"?name="+url.QueryEscape(name), bytes.NewReader(data))
	req.Header.Set("Content-Type", typ)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", b.s.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return b.do(t, req)
}

// dotPNG is a 3×2 PNG.
func dotPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{200, 30, 30, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// spaceFiles lists the files of a space's content ("" the live one, else a
// change request's number) through the API, as "name type size" lines.
func spaceFiles(t *testing.T, s *apitest.Server, tok, sp, cr string) []string {
	t.Helper()
	path := "/v1/spaces/" + sp + "/content/files"
	if cr != "" {
		path = "/v1/spaces/" + sp + "/change-requests/" + cr + "/content/files"
	}
	var list struct {
		Items []struct {
			ID, Name, ContentType string
			Size                  int64
		}
	}
	s.Do(t, tok, "GET", path, nil).WantStatus(t, 200).JSON(t, &list)
	var out []string
	for _, f := range list.Items {
		out = append(out, f.ID+" "+f.Name+" "+f.ContentType)
	}
	return out
}

func TestUploadImage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		r, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		upload := "/s/" + sp + "/~/files"
		writer := signIn(t, s, w.Email)
		pic := dotPNG(t)
		revision := func() folio.ID {
			t.Helper()
			c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
			if err != nil {
				t.Fatal(err)
			}
			return c.Revision.ID
		}
		before := revision()

		// Refused, changing nothing: without or with a wrong CSRF token, by
		// a reader (with their own token), anything but an image, bytes
		// that are not what they are declared as, an SVG that is not one.
		writer.postFile(t, upload, "dot.png", "image/png", pic, "").want(t, 403)
		writer.postFile(t, upload, "dot.png", "image/png", pic, "wrong").want(t, 403)
		reader := signIn(t, s, r.Email)
		reader.postFile(t, upload, "dot.png", "image/png", pic, reader.csrf).want(t, 403, `"code":403`, "you cannot edit")
		writer.postFile(t, upload, "notes.txt", "text/plain", []byte("hello"), writer.csrf).
			want(t, 400, `{"error":{"code":400,"message":"only images can be added (PNG, JPEG, GIF, WebP or SVG), not text/plain"}}`)
		writer.postFile(t, upload, "doc.pdf", "application/octet-stream", []byte("%PDF-1.4\n"), writer.csrf).
			want(t, 400, `"code":400`, "only images can be added", "application/pdf")
		writer.postFile(t, upload, "fake.png", "image/png", []byte("<html><script>alert(1)</script></html>"), writer.csrf).
			want(t, 400, `"code":400`, "only images can be added", "text/html")
		writer.postFile(t, upload, "fake.webp", "", []byte("<html><script>alert(1)</script></html>"), writer.csrf).
			want(t, 400, `"code":400`, "only images can be added", "text/html")
		writer.postFile(t, upload, "x.svg", "image/svg+xml", []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`), writer.csrf).
			want(t, 400, `"code":400`, "not an SVG image")
		writer.postFile(t, upload, "x.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"`), writer.csrf).
			want(t, 400, `"code":400`, "not an SVG image")
		writer.postFile(t, upload, "truncated.png", "image/png", pic[:20], writer.csrf).want(t, 400, `"code":400`)
		writer.postFile(t, upload, "empty.png", "image/png", nil, writer.csrf).want(t, 400, "the file is empty")
		big := append(append([]byte{}, pic...), make([]byte, 10<<20)...)
		writer.postFile(t, upload, "big.png", "image/png", big, writer.csrf).want(t, 413, `"code":413`)
		if got := revision(); got != before {
			t.Fatalf("refused uploads made revision %s (was %s)", got, before)
		}
		if got := spaceFiles(t, s, admin, sp, ""); len(got) != 0 {
			t.Fatalf("refused uploads left files %v", got)
		}

		// An image: stored, listed in the space's files, its bytes served
		// at the URL answered.
		p := writer.postFile(t, upload, "dot.png", "image/png", pic, writer.csrf).want(t, 201, `"kind":"file"`, `"contentType":"image/png"`)
		var res struct {
			Ref  struct{ Kind, File string }
			File struct {
				ID, Name, ContentType string
				Size                  int64
			}
			URL string
		}
		if err := json.Unmarshal([]byte(p.Body), &res); err != nil {
			t.Fatal(err)
		}
		if res.Ref.File == "" || res.Ref.File != res.File.ID || res.File.Name != "dot.png" || res.File.Size != int64(len(pic)) ||
			!strings.HasPrefix(res.URL, "/v1/files/") {
			t.Fatalf("upload answered %s", p.Body)
		}
		if got := spaceFiles(t, s, admin, sp, ""); len(got) != 1 || got[0] != res.File.ID+" dot.png image/png" {
			t.Fatalf("space files %v", got)
		}
		resp, err := http.Get(s.URL + res.URL)
		if err != nil {
			t.Fatal(err)
		}
		served, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(served, pic) {
			t.Fatalf("the file's URL answers %d with %d bytes", resp.StatusCode, len(served))
		}
		// An SVG, named from its type when the name has no extension.
		svg := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`
		writer.postFile(t, upload, "pasted", "image/svg+xml", []byte(svg), writer.csrf).want(t, 201, `"name":"pasted.svg"`, `"contentType":"image/svg+xml"`)
		// JPEG and GIF too, their type from their bytes.
		img := image.NewRGBA(image.Rect(0, 0, 4, 4))
		var jpg, gf bytes.Buffer
		if err := jpeg.Encode(&jpg, img, nil); err != nil {
			t.Fatal(err)
		}
		if err := gif.Encode(&gf, img, nil); err != nil {
			t.Fatal(err)
		}
		writer.postFile(t, upload, "photo.jpg", "image/jpeg", jpg.Bytes(), writer.csrf).want(t, 201, `"contentType":"image/jpeg"`)
		writer.postFile(t, upload, "anim.gif", "", gf.Bytes(), writer.csrf).want(t, 201, `"contentType":"image/gif"`)
		if got := spaceFiles(t, s, admin, sp, ""); len(got) != 4 {
			t.Fatalf("space files after the SVG, JPEG and GIF %v", got)
		}

		// The edit view knows the URLs of the files its document shows.
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "images", "data": map[string]any{}, "nodes": []any{
				map[string]any{"object": "block", "type": "image", "data": map[string]any{"ref": map[string]any{"kind": "file", "file": res.File.ID}}}}}}}
		writer.postJSON(t, "/s/"+sp+"/~/pages/"+pageID+"/document", map[string]any{"document": doc}, writer.csrf).want(t, 200)
		writer.get(t, "/s/"+sp+"/~/pages/"+pageID+"/edit").want(t, 200, `data-upload="/s/`+sp+`/~/files"`,
			`data-files="{&#34;`+res.File.ID+`&#34;:&#34;/v1/files/`)
	})
}

func TestUploadImageInChangeRequest(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		r, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Pictures"}).WantStatus(t, 201)
		upload := "/s/" + sp + "/~/changes/1/files"
		writer := signIn(t, s, w.Email)
		reader := signIn(t, s, r.Email)
		pic := dotPNG(t)

		writer.postFile(t, upload, "dot.png", "image/png", pic, "").want(t, 403)
		reader.postFile(t, upload, "dot.png", "image/png", pic, reader.csrf).want(t, 403, `"code":403`)
		writer.postFile(t, upload, "notes.txt", "text/plain", []byte("hello"), writer.csrf).want(t, 400, "only images can be added")
		if got := spaceFiles(t, s, admin, sp, "1"); len(got) != 0 {
			t.Fatalf("refused uploads left files in the change request: %v", got)
		}

		writer.postFile(t, upload, "dot.png", "image/png", pic, writer.csrf).want(t, 201, `"name":"dot.png"`)
		if got := spaceFiles(t, s, admin, sp, "1"); len(got) != 1 || !strings.HasSuffix(got[0], " dot.png image/png") {
			t.Fatalf("change request files %v", got)
		}
		// The live content does not change until the merge.
		if got := spaceFiles(t, s, admin, sp, ""); len(got) != 0 {
			t.Fatalf("live files %v", got)
		}
		writer.get(t, "/s/"+sp+"/~/changes/1/edit?page="+firstPage(t, s, w.ID, sp)).want(t, 200, `data-upload="`+upload+`"`)
	})
}

func firstPage(t *testing.T, s *apitest.Server, user folio.ID, sp folio.ID) string {
	t.Helper()
	c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: user}, sp, "")
	if err != nil {
		t.Fatal(err)
	}
	return c.Tree.Pages[0].ID
}
