package reader_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestPageMarkdown: every document page has its Markdown at its address
// plus ".md" (linked from the page), with its title, description and
// body, and links to the site's pages; llms.txt lists the pages of the
// site spaces the visitor may see, llms-full.txt holds their Markdown;
// hidden pages and conditional site spaces stay out.
func TestPageMarkdown(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, "", map[string]any{"title": "Aurora"})
		archive := zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Intro](README.md)\n* [Setup](setup.md)\n",
			"README.md":  "---\ndescription: Where to start.\n---\n\n# Intro\n\nRead **this** then [setup](setup.md).\n\n{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n",
			"setup.md":   "# Setup\n\n```sh\nmake\n```\n",
		})
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
			map[string]any{"source": "zip", "url": dataURL("application/zip", string(archive))}).WantStatus(t, 201)
		beta := f.newSpace(t, "Beta", "# Preview\n\nSecret plans.\n")
		betaSS, _ := f.addSiteSpace(t, beta)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+betaSS, map[string]any{"condition": "visitor.claims.beta == true"}).WantStatus(t, 200)
		f.publish(t)
		base := "/sites/" + f.site
		abs := apitest.PublicURL + base

		get(t, s, nil, "", base+"/").want(t, 200, `<link rel="alternate" type="text/markdown" href="`+base+`/intro.md">`,
			`<a class="md-link" href="`+base+`/intro.md" type="text/markdown">`)
		md := get(t, s, nil, "", base+"/intro.md").want(t, 200)
		want := "# Intro\n\nWhere to start.\n\nRead **this** then [setup](" + abs + "/setup).\n\n{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n"
		if md.body != want || md.header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Fatalf("intro.md %v\n%q\nwant\n%q", md.header, md.body, want)
		}
		get(t, s, nil, "", base+"/setup.md").want(t, 200, "# Setup\n\n```sh\nmake\n```\n")
		get(t, s, nil, "", base+"/nothing.md").want(t, 404)
		get(t, s, nil, "", base+"/.md").want(t, 404)

		llms := get(t, s, nil, "", base+"/llms.txt").want(t, 200)
		if want := "# Aurora\n\n## Guide\n\n- [Intro](" + abs + "/intro.md): Where to start.\n- [Setup](" + abs + "/setup.md)\n\n"; llms.body != want {
			t.Fatalf("llms.txt\n%q\nwant\n%q", llms.body, want)
		}
		full := get(t, s, nil, "", base+"/llms-full.txt").want(t, 200, "Source: "+abs+"/intro\n\n# Intro\n\nWhere to start.", "# Setup\n\n```sh\nmake\n```\n")
		for _, p := range []page{llms, full} {
			if strings.Contains(p.body, "Preview") || strings.Contains(p.body, "Secret") {
				t.Fatalf("a conditional site space shows:\n%s", p.body)
			}
		}
	})
}

// TestInterfaceLanguage: the customization's locale sets the page's
// language and its interface strings, and the error pages'.
func TestInterfaceLanguage(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		base := "/sites/" + f.site
		get(t, s, nil, "", base+"/").want(t, 200, `<html lang="en"`, ">On this page<", `aria-label="Search this site"`)
		for locale, words := range map[string][]string{
			"fr": {`<html lang="fr"`, ">Sur cette page<", `aria-label="Rechercher dans ce site"`, `aria-label="Lien vers cette section"`},
			"de": {`<html lang="de"`, ">Auf dieser Seite<", `aria-label="Dunkles Design"`, "Zuletzt aktualisiert <time datetime="},
			"es": {`<html lang="es"`, ">En esta página<", `aria-label="Tema claro"`},
			"ja": {`<html lang="ja"`, ">このページの内容<", `aria-label="ダークテーマ"`},
		} {
			s.DoUnchecked(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+f.siteSpace(t)+"/customization",
				map[string]any{"internationalization": map[string]any{"locale": locale}}).WantStatus(t, 200)
			get(t, s, nil, "", base+"/").want(t, 200, words...)
		}
		s.DoUnchecked(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+f.siteSpace(t)+"/customization",
			map[string]any{"internationalization": map[string]any{"locale": "fr"}}).WantStatus(t, 200)
		get(t, s, nil, "", base+"/nope/nope").want(t, 404, `<html lang="fr"`, "<h1>Page introuvable</h1>")
		get(t, s, nil, "", base+"/~/search?q=zzzz").want(t, 200, "<h1>Rechercher</h1>", "Aucune page ne correspond à « zzzz ».")
	})
}
