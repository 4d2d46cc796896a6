package reader

import (
	"fmt"
	"strings"
	"time"
)

// The reader's interface strings, in the site's locale (the
// customization's internationalization.locale). One catalog: English is
// complete, and a string missing in another language falls back to it.
// Strings with %s or %d are formats.

// strs is the strings of one language, by key.
type strs map[string]string

var catalog = map[string]strs{
	"en": {
		"skip": "Skip to content", "menu": "Menu", "search": "Search", "searchPlaceholder": "Search…",
		"searchLabel": "Search this site", "theme": "Theme", "themeLight": "Light theme", "themeDark": "Dark theme",
		"themeSystem": "System theme", "pages": "Pages", "sections": "Sections", "spaces": "Variants",
		"onThisPage": "On this page", "previous": "Previous", "next": "Next", "lastUpdated": "Last updated",
		"breadcrumbs": "Breadcrumbs", "copy": "Copy", "copied": "Copied", "copyCode": "Copy code",
		"copyPage": "Copy page", "viewMarkdown": "View as Markdown", "linkToSection": "Link to this section",
		"subpages": "Subpages of %s", "table": "Table", "code": "Code", "download": "Download", "editOnGit": "Edit on Git",
		"notFound": "Page not found", "notFoundText": "There is no page at this address.", "backHome": "Back to the home page",
		"authRequired": "Authentication required", "unavailable": "Unavailable", "unavailableText": "This site cannot be shown right now.",
		"error": "Something went wrong", "errorText": "The page could not be shown.",
		"searchTooLong": "The search is too long: at most %d characters.", "searchOne": "1 page matches “%s”.",
		"searchMany": "%d pages match “%s”.", "searchManyMore": "%d+ pages match “%s”.", "searchNone": "No page matches “%s”.",
		"searchMore": "Only the first pages are listed: try more words.", "searchPrompt": "Type words to find in this site’s pages.",
		"searchClose": "Close", "searching": "Searching…", "searchAll": "See all results", "footer": "Site footer",
	},
	"fr": {
		"skip": "Aller au contenu", "menu": "Menu", "search": "Rechercher", "searchPlaceholder": "Rechercher…",
		"searchLabel": "Rechercher dans ce site", "theme": "Thème", "themeLight": "Thème clair", "themeDark": "Thème sombre",
		"themeSystem": "Thème du système", "pages": "Pages", "sections": "Sections", "spaces": "Variantes",
		"onThisPage": "Sur cette page", "previous": "Précédent", "next": "Suivant", "lastUpdated": "Dernière mise à jour",
		"breadcrumbs": "Fil d’Ariane", "copy": "Copier", "copied": "Copié", "copyCode": "Copier le code",
		"copyPage": "Copier la page", "viewMarkdown": "Voir en Markdown", "linkToSection": "Lien vers cette section",
		"subpages": "Sous-pages de %s", "table": "Tableau", "code": "Code", "download": "Télécharger", "editOnGit": "Modifier sur Git",
		"notFound": "Page introuvable", "notFoundText": "Il n’y a pas de page à cette adresse.", "backHome": "Retour à l’accueil",
		"authRequired": "Authentification requise", "unavailable": "Indisponible", "unavailableText": "Ce site ne peut pas être affiché pour le moment.",
		"error": "Une erreur est survenue", "errorText": "La page n’a pas pu être affichée.",
		"searchTooLong": "La recherche est trop longue : %d caractères au plus.", "searchOne": "1 page correspond à « %s ».",
		"searchMany": "%d pages correspondent à « %s ».", "searchManyMore": "Plus de %d pages correspondent à « %s ».", "searchNone": "Aucune page ne correspond à « %s ».",
		"searchMore": "Seules les premières pages sont listées : précisez la recherche.", "searchPrompt": "Tapez des mots à chercher dans les pages de ce site.",
		"searchClose": "Fermer", "searching": "Recherche…", "searchAll": "Voir tous les résultats", "footer": "Pied de page",
	},
	"de": {
		"skip": "Zum Inhalt springen", "menu": "Menü", "search": "Suchen", "searchPlaceholder": "Suchen…",
		"searchLabel": "Diese Website durchsuchen", "theme": "Design", "themeLight": "Helles Design", "themeDark": "Dunkles Design",
		"themeSystem": "Systemdesign", "pages": "Seiten", "sections": "Bereiche", "spaces": "Varianten",
		"onThisPage": "Auf dieser Seite", "previous": "Zurück", "next": "Weiter", "lastUpdated": "Zuletzt aktualisiert",
		"breadcrumbs": "Brotkrümelnavigation", "copy": "Kopieren", "copied": "Kopiert", "copyCode": "Code kopieren",
		"copyPage": "Seite kopieren", "viewMarkdown": "Als Markdown anzeigen", "linkToSection": "Link zu diesem Abschnitt",
		"subpages": "Unterseiten von %s", "table": "Tabelle", "code": "Code", "download": "Herunterladen", "editOnGit": "Auf Git bearbeiten",
		"notFound": "Seite nicht gefunden", "notFoundText": "Unter dieser Adresse gibt es keine Seite.", "backHome": "Zur Startseite",
		"authRequired": "Anmeldung erforderlich", "unavailable": "Nicht verfügbar", "unavailableText": "Diese Website kann gerade nicht angezeigt werden.",
		"error": "Etwas ist schiefgelaufen", "errorText": "Die Seite konnte nicht angezeigt werden.",
		"searchTooLong": "Die Suche ist zu lang: höchstens %d Zeichen.", "searchOne": "1 Seite passt zu „%s“.",
		"searchMany": "%d Seiten passen zu „%s“.", "searchManyMore": "Mehr als %d Seiten passen zu „%s“.", "searchNone": "Keine Seite passt zu „%s“.",
		"searchMore": "Nur die ersten Seiten werden gezeigt: versuchen Sie mehr Wörter.", "searchPrompt": "Geben Sie Wörter ein, die in den Seiten gesucht werden.",
		"searchClose": "Schließen", "searching": "Suche läuft…", "searchAll": "Alle Ergebnisse", "footer": "Fußzeile",
	},
	"es": {
		"skip": "Ir al contenido", "menu": "Menú", "search": "Buscar", "searchPlaceholder": "Buscar…",
		"searchLabel": "Buscar en este sitio", "theme": "Tema", "themeLight": "Tema claro", "themeDark": "Tema oscuro",
		"themeSystem": "Tema del sistema", "pages": "Páginas", "sections": "Secciones", "spaces": "Variantes",
		"onThisPage": "En esta página", "previous": "Anterior", "next": "Siguiente", "lastUpdated": "Última actualización",
		"breadcrumbs": "Ruta de navegación", "copy": "Copiar", "copied": "Copiado", "copyCode": "Copiar el código",
		"copyPage": "Copiar la página", "viewMarkdown": "Ver como Markdown", "linkToSection": "Enlace a esta sección",
		"subpages": "Subpáginas de %s", "table": "Tabla", "code": "Código", "download": "Descargar", "editOnGit": "Editar en Git",
		"notFound": "Página no encontrada", "notFoundText": "No hay ninguna página en esta dirección.", "backHome": "Volver al inicio",
		"authRequired": "Autenticación requerida", "unavailable": "No disponible", "unavailableText": "Este sitio no se puede mostrar ahora.",
		"error": "Algo salió mal", "errorText": "No se pudo mostrar la página.",
		"searchTooLong": "La búsqueda es demasiado larga: %d caracteres como máximo.", "searchOne": "1 página coincide con «%s».",
		"searchMany": "%d páginas coinciden con «%s».", "searchManyMore": "Más de %d páginas coinciden con «%s».", "searchNone": "Ninguna página coincide con «%s».",
		"searchMore": "Solo se muestran las primeras páginas: pruebe con más palabras.", "searchPrompt": "Escriba palabras para buscar en las páginas de este sitio.",
		"searchClose": "Cerrar", "searching": "Buscando…", "searchAll": "Ver todos los resultados", "footer": "Pie de página",
	},
	"ja": {
		"skip": "本文へスキップ", "menu": "メニュー", "search": "検索", "searchPlaceholder": "検索…",
		"searchLabel": "このサイトを検索", "theme": "テーマ", "themeLight": "ライトテーマ", "themeDark": "ダークテーマ",
		"themeSystem": "システムのテーマ", "pages": "ページ", "sections": "セクション", "spaces": "バリアント",
		"onThisPage": "このページの内容", "previous": "前へ", "next": "次へ", "lastUpdated": "最終更新",
		"breadcrumbs": "パンくずリスト", "copy": "コピー", "copied": "コピーしました", "copyCode": "コードをコピー",
		"copyPage": "ページをコピー", "viewMarkdown": "Markdown で表示", "linkToSection": "このセクションへのリンク",
		"subpages": "%s のサブページ", "table": "表", "code": "コード", "download": "ダウンロード", "editOnGit": "Git で編集",
		"notFound": "ページが見つかりません", "notFoundText": "このアドレスにページはありません。", "backHome": "ホームに戻る",
		"authRequired": "認証が必要です", "unavailable": "利用できません", "unavailableText": "このサイトは現在表示できません。",
		"error": "問題が発生しました", "errorText": "ページを表示できませんでした。",
		"searchTooLong": "検索語が長すぎます（最大 %d 文字）。", "searchOne": "「%s」に一致するページが 1 件あります。",
		"searchMany": "「%[2]s」に一致するページが %[1]d 件あります。", "searchManyMore": "「%[2]s」に一致するページが %[1]d 件以上あります。", "searchNone": "「%s」に一致するページはありません。",
		"searchMore": "最初のページのみ表示しています。語を追加してください。", "searchPrompt": "このサイトのページを検索する語を入力してください。",
		"searchClose": "閉じる", "searching": "検索中…", "searchAll": "すべての結果を見る", "footer": "サイトフッター",
	},
}

// locales maps the customization's locale (GitBook's SiteLocale values,
// e.g. "fr", "pt-br", "zh") to a language of the catalog.
func localeOf(c map[string]any) string {
	l := strings.ToLower(str(obj(c, "internationalization"), "locale"))
	l, _, _ = strings.Cut(l, "-")
	if _, ok := catalog[l]; ok {
		return l
	}
	return "en"
}

// tr returns the strings of a language, with English for missing keys.
func tr(lang string) strs {
	return translated[lang]
}

// translated is each language of the catalog filled in from English.
var translated = func() map[string]strs {
	out := map[string]strs{}
	for lang, m := range catalog {
		full := strs{}
		for k, v := range catalog["en"] {
			full[k] = v
		}
		for k, v := range m {
			full[k] = v
		}
		out[lang] = full
	}
	return out
}()

// months are the month names of each language (Japanese needs none).
var months = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
}

// longDate writes a date as the language writes it in prose.
func longDate(lang string, t time.Time) string {
	y, m, d := t.Date()
	name := months[lang][m-1]
	switch lang {
	case "fr":
		return fmt.Sprintf("%d %s %d", d, name, y)
	case "de":
		return fmt.Sprintf("%d. %s %d", d, name, y)
	case "es":
		return fmt.Sprintf("%d de %s de %d", d, name, y)
	case "ja":
		return fmt.Sprintf("%d年%d月%d日", y, m, d)
	}
	return fmt.Sprintf("%s %d, %d", months["en"][m-1], d, y)
}
