package translate_test

import (
	"context"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/translate"
	"github.com/google/go-cmp/cmp"
)

// leaf is a compact view of a text leaf for comparisons.
type leaf struct {
	Text  string
	Marks []string
}

func leavesOf(ns []content.Node) []any {
	var out []any
	for _, n := range ns {
		switch n.Object {
		case content.ObjectText:
			var ls []leaf
			for _, l := range n.Leaves {
				var ms []string
				for _, m := range l.Marks {
					ms = append(ms, m.Type)
				}
				ls = append(ls, leaf{l.Text, ms})
			}
			out = append(out, ls)
		default:
			out = append(out, map[string]any{n.Type: leavesOf(n.Nodes)})
		}
	}
	return out
}

func textNode(ls ...content.Leaf) content.Node {
	return content.Node{Object: content.ObjectText, Leaves: ls}
}

func lf(text string, marks ...string) content.Leaf {
	return content.NewText(text, marks...).Leaves[0]
}

func TestEngineAnswersAreReadBack(t *testing.T) {
	click := content.NewBlock(content.BlockParagraph, textNode(lf("Click "), lf("Save", "bold"), lf(" to "), lf("store", "code"), lf(" it.")))
	link := content.NewBlock(content.BlockParagraph, textNode(lf("Read ")),
		content.NewInline(content.InlineLink, textNode(lf("the guide"))), textNode(lf(" now.")))
	boldLink := content.NewBlock(content.BlockParagraph, textNode(lf("Read", "bold"), lf(" ")),
		content.NewInline(content.InlineLink, textNode(lf("the guide"))), textNode(lf(" now.")))
	for _, tc := range []struct {
		name   string
		block  content.Node
		answer string
		want   []any
	}{
		{"marks move with their words", click, `<x id="1"/> le <g id="0">Sauver</g> pour cliquer.`,
			[]any{[]leaf{{"store", []string{"code"}}, {" le ", nil}, {"Sauver", []string{"bold"}}, {" pour cliquer.", nil}}}},
		{"html-style empty x", click, `Cliquez <g id="0">Sauver</g> pour <x id="1"></x> le.`,
			[]any{[]leaf{{"Cliquez ", nil}, {"Sauver", []string{"bold"}}, {" pour ", nil}, {"store", []string{"code"}}, {" le.", nil}}}},
		{"spacing and quoting in tags", click, `Cliquez <G ID='0' >Sauver</g > pour <x id=1 /> le &amp; &#233;.`,
			[]any{[]leaf{{"Cliquez ", nil}, {"Sauver", []string{"bold"}}, {" pour ", nil}, {"store", []string{"code"}}, {" le & é.", nil}}}},
		{"a link at the start keeps the normal form", link, `<g id="0">LE GUIDE</g> lisez.`,
			[]any{[]leaf{{"", nil}}, map[string]any{"link": []any{[]leaf{{"LE GUIDE", nil}}}}, []leaf{{" lisez.", nil}}}},
		{"a dropped tag falls back to leaves", click, `Cliquez Sauver pour le.`,
			[]any{[]leaf{{"CLICK ", nil}, {"SAVE", []string{"bold"}}, {" TO ", nil}, {"store", []string{"code"}}, {" IT.", nil}}}},
		{"a repeated tag falls back", click, `<g id="0">a</g><g id="0">b</g><x id="1"/>`,
			[]any{[]leaf{{"CLICK ", nil}, {"SAVE", []string{"bold"}}, {" TO ", nil}, {"store", []string{"code"}}, {" IT.", nil}}}},
		{"an unknown tag falls back", click, `<b>Cliquez</b> <g id="0">Sauver</g> <x id="1"/>`,
			[]any{[]leaf{{"CLICK ", nil}, {"SAVE", []string{"bold"}}, {" TO ", nil}, {"store", []string{"code"}}, {" IT.", nil}}}},
		{"a link inside a mark falls back", boldLink, `<g id="0">Lisez <g id="1">le guide</g></g> maintenant.`,
			[]any{[]leaf{{"READ", []string{"bold"}}, {" ", nil}}, map[string]any{"link": []any{[]leaf{{"THE GUIDE", nil}}}}, []leaf{{" NOW.", nil}}}},
		{"a link may move", boldLink, `Lisez <g id="1">le guide</g> <g id="0">maintenant</g>.`,
			[]any{[]leaf{{"Lisez ", nil}}, map[string]any{"link": []any{[]leaf{{"le guide", nil}}}}, []leaf{{" ", nil}, {"maintenant", []string{"bold"}}, {".", nil}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeLibre(t)
			doc := &content.Document{Object: content.ObjectDocument, Data: map[string]any{}, Nodes: []content.Node{tc.block}}
			segs := f.segmentsOf(t, doc)
			f.set(func(f *fakeLibre) { f.answers = map[string]string{segs[0]: tc.answer} })
			out, _, err := translate.TranslateDocument(context.Background(), libre(t, f, translate.Config{}), doc, translate.Request{Source: "en", Target: "fr"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, leavesOf(out.Nodes[0].Nodes)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if err := out.Validate("document"); err != nil {
				t.Error(err)
			}
		})
	}
}

// segmentsOf returns the markup segments the engine receives for doc.
func (f *fakeLibre) segmentsOf(t *testing.T, doc *content.Document) []string {
	t.Helper()
	n := len(f.requests())
	if _, _, err := translate.TranslateDocument(context.Background(), libre(t, f, translate.Config{}), doc, translate.Request{Source: "en", Target: "fr"}); err != nil {
		t.Fatal(err)
	}
	return f.requests()[n].Q
}
