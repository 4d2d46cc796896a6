package markdown

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// shape returns a compact description of blocks: type, hint style, and
// children, e.g. "hint(info)[paragraph]".
func shape(nodes []content.Node) string {
	var parts []string
	for _, n := range nodes {
		if n.Object != content.ObjectBlock {
			continue
		}
		s := n.Type
		if style, ok := n.Data["style"].(string); ok {
			s += "(" + style + ")"
		}
		if inner := shape(n.Nodes); inner != "" {
			s += "[" + inner + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestGitHubAlerts(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		shape     string // the document's blocks
		text      string // the document's plain text
		// written is what FromDocument writes: the source itself for an
		// unedited alert, which is kept (DataRaw).
		written string
	}{
		{name: "note/info", src: "> [!NOTE]\n> Read *this*.\n", shape: "hint(info)[paragraph]", text: "Read this."},
		{name: "tip/success", src: "> [!TIP]\n> Try it.\n", shape: "hint(success)[paragraph]", text: "Try it."},
		{name: "important/info", src: "> [!IMPORTANT]\n> Key point.\n", shape: "hint(info)[paragraph]", text: "Key point."},
		{name: "warning/warning", src: "> [!WARNING]\n> Careful.\n", shape: "hint(warning)[paragraph]", text: "Careful."},
		{name: "caution/danger", src: "> [!CAUTION]\n> Data loss.\n", shape: "hint(danger)[paragraph]", text: "Data loss."},
		{name: "kind/any case", src: "> [!Note]\n> x\n", shape: "hint(info)[paragraph]", text: "x"},
		{name: "marker/blanks around", src: ">   [!WARNING]  \n> x\n", shape: "hint(warning)[paragraph]", text: "x"},
		{name: "content/several blocks", src: "> [!TIP]\n>\n> One.\n>\n> * a\n> * b\n",
			shape: "hint(success)[paragraph list-unordered[list-item[paragraph] list-item[paragraph]]]", text: "One.\na\nb"},
		{name: "content/lazy continuation", src: "> [!NOTE]\n> first\nlazy\n", shape: "hint(info)[paragraph]", text: "first lazy"},
		{name: "content/followed by text", src: "> [!NOTE]\n> in\n\nout\n", shape: "hint(info)[paragraph] paragraph", text: "in\nout",
			written: "> [!NOTE]\n> in\n\nout\n"},
		{name: "quote/plain stays a quote", src: "> Just a quote.\n", shape: "blockquote[paragraph]", text: "Just a quote.",
			written: "> Just a quote.\n"},
		{name: "quote/unknown kind", src: "> [!DANGER]\n> x\n", shape: "blockquote[paragraph]", text: "[!DANGER] x",
			written: "> \\[!DANGER\\] x\n"},
		{name: "quote/text after the marker", src: "> [!NOTE] Title\n> x\n", shape: "blockquote[paragraph]", text: "[!NOTE] Title x",
			written: "> \\[!NOTE\\] Title x\n"},
		{name: "quote/marker alone", src: "> [!NOTE]\n", shape: "blockquote[paragraph]", text: "[!NOTE]",
			written: "> \\[!NOTE\\]\n"},
		{name: "quote/escaped marker", src: "> \\[!NOTE\\]\n> x\n", shape: "blockquote[paragraph]", text: "[!NOTE] x",
			written: "> \\[!NOTE\\] x\n"},
		{name: "quote/marker as a link", src: "> [!NOTE](https://x.y)\n> x\n", shape: "blockquote[paragraph]", text: "!NOTE x",
			written: "> [!NOTE](https://x.y) x\n"},
		{name: "quote/nested in a list", src: "* > [!NOTE]\n  > x\n", shape: "list-unordered[list-item[blockquote[paragraph]]]",
			text: "[!NOTE] x", written: "* > \\[!NOTE\\] x\n"},
		{name: "quote/inside a hint", src: "{% hint style=\"danger\" %}\n> [!NOTE]\n> x\n{% endhint %}\n",
			shape: "hint(danger)[paragraph]", text: "[!NOTE] x", // a hint holds no quote
			written: "{% hint style=\"danger\" %}\n\\[!NOTE\\] x\n{% endhint %}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustDoc(t, tt.src, nil)
			if got := shape(doc.Nodes); got != tt.shape {
				t.Errorf("blocks %s, want %s", got, tt.shape)
			}
			if got := doc.PlainText(); got != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			want := tt.written
			if want == "" {
				want = tt.src
			}
			if got := roundTrip(t, doc, nil, nil); got != want {
				t.Errorf("written %q, want %q", got, want)
			}
		})
	}
}

// An edited alert is written as GitBook's hint tag, which reads back as the
// same hint: import, export and import again give the same document.
func TestEditedAlertIsWrittenAsHint(t *testing.T) {
	for kind, style := range AlertStyles {
		t.Run(kind, func(t *testing.T) {
			doc := mustDoc(t, "> [!"+kind+"]\n> Before.\n", nil)
			doc.Nodes[0].Nodes[0].Nodes[0].Leaves[0].Text = "After."
			PruneKept(doc) // as stores of edited documents do
			doc.Nodes[0].Key = ""
			md := roundTrip(t, doc, nil, nil)
			if want := "{% hint style=\"" + style + "\" %}\nAfter.\n{% endhint %}\n"; md != want {
				t.Errorf("written %q, want %q", md, want)
			}
		})
	}
	// Kept source does not survive JSON in a form that differs: the stored
	// document writes the alert back too.
	doc := mustDoc(t, "> [!CAUTION]\n> Stop.\n", nil)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var stored content.Document
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	if md, _ := FromDocument(&stored, nil); string(md) != "> [!CAUTION]\n> Stop.\n" {
		t.Errorf("stored alert written %q", md)
	}
}

// dataResolver stores data: URLs as "data-<n>" files.
type dataResolver struct {
	fakeResolver
	got []string
}

func (d *dataResolver) Data(u string) (string, bool) {
	if strings.Contains(u, "refuse") {
		return "", false
	}
	d.got = append(d.got, u)
	return "data-" + string(rune('0'+len(d.got))), true
}

func TestDataURLImages(t *testing.T) {
	png := "data:image/png;base64,iVBORw0KGgo="
	src := "![inline](" + png + ") in text\n\n![alone](" + png + ")\n\n" +
		"<figure><img src=\"" + png + "\" alt=\"fig\"><figcaption></figcaption></figure>\n\n" +
		"{% file src=\"" + png + "\" %}\nF\n{% endfile %}\n\n" +
		"[a link](data:text/plain,hi) ![kept](data:image/png;base64,refuse)\n"
	r := &dataResolver{}
	doc := mustDoc(t, src, r)
	want := map[string]any{
		"0.nodes.0.data.ref": map[string]any{"kind": "file", "file": "data-1"},
		"1.nodes.0.data.ref": map[string]any{"kind": "file", "file": "data-2"},
		"2.nodes.0.data.ref": map[string]any{"kind": "file", "file": "data-3"},
		"3.data.ref":         map[string]any{"kind": "file", "file": "data-4"},
		// Links and refused images keep their URL.
		"4.nodes.0.data.ref": map[string]any{"kind": "url", "url": "data:text/plain,hi"},
		"4.nodes.2.data.ref": map[string]any{"kind": "url", "url": "data:image/png;base64,refuse"},
	}
	for path, w := range want {
		if diff := cmp.Diff(w, get(t, doc, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	if len(r.got) != 4 {
		t.Errorf("Data called for %d URLs, want 4", len(r.got))
	}
	// Without a DataResolver they stay URLs.
	plain := mustDoc(t, src, fakeResolver{})
	if diff := cmp.Diff(map[string]any{"kind": "url", "url": png}, get(t, plain, "1.nodes.0.data.ref")); diff != "" {
		t.Errorf("without DataResolver (-want +got):\n%s", diff)
	}
}
