package gitsync

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/foliodocs/folio"
)

// Config is a project's .gitbook.yaml. Root is relative to the project
// directory; Readme, Summary and the targets of Redirects are relative to
// Root. ParseConfig fills the defaults.
type Config struct {
	Root      string            // folder holding the docs, "" for the project directory
	Readme    string            // the first page's file, default README.md
	Summary   string            // the table of contents, default SUMMARY.md
	Redirects map[string]string // old path -> file path relative to Root
}

// Bounds of .gitbook.yaml.
const (
	MaxConfigBytes = 1 << 20
	MaxRedirects   = 10000
)

// DefaultConfig returns the configuration of a project without
// .gitbook.yaml: docs at the project directory, README.md and SUMMARY.md.
func DefaultConfig() Config { return Config{Readme: defaultReadme, Summary: defaultSummary} }

// configFile is .gitbook.yaml as YAML sees it.
type configFile struct {
	Root      string            `yaml:"root"`
	Structure map[string]string `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// ParseConfig reads .gitbook.yaml. Errors are Invalid (field
// ".gitbook.yaml"): YAML that does not parse or has the wrong shape (the
// message names the line), more than MaxConfigBytes or MaxRedirects, or a
// path that leaves the repository.
func ParseConfig(data []byte) (Config, error) {
	const field = configName
	if len(data) > MaxConfigBytes {
		return Config{}, folio.FieldErrorf(field, "%s is larger than %d bytes", field, MaxConfigBytes)
	}
	var f configFile
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &f); err != nil {
			e := folio.FieldErrorf(field, "%s is not valid YAML: %s", field, yamlMessage(err))
			e.Err = err
			return Config{}, e
		}
	}
	c := DefaultConfig()
	var err error
	if c.Root, err = cleanDir("root", f.Root); err != nil {
		return Config{}, configError(err)
	}
	for key, value := range f.Structure {
		switch key {
		case "readme", "summary":
			p, err := cleanDir("structure."+key, value)
			if err != nil {
				return Config{}, configError(err)
			}
			if p == "" {
				continue
			}
			if key == "readme" {
				c.Readme = p
			} else {
				c.Summary = p
			}
		}
	}
	if len(f.Redirects) > MaxRedirects {
		return Config{}, folio.FieldErrorf(field, "%s holds more than %d redirects", field, MaxRedirects)
	}
	if len(f.Redirects) > 0 {
		c.Redirects = make(map[string]string, len(f.Redirects))
		for from, to := range f.Redirects {
			p, err := cleanDir("redirects", to)
			if err != nil {
				return Config{}, configError(err)
			}
			from = strings.TrimSpace(from)
			if from == "" || p == "" {
				continue
			}
			c.Redirects[from] = p
		}
	}
	return c, nil
}

func configError(err error) error {
	return folio.FieldErrorf(configName, "%s: %s", configName, folio.MessageOf(err))
}

// yamlMessage turns a YAML error into a short message that names the line
// ("line 3: mapping values are not allowed in this context"), without the
// file's content beyond what the parser quotes of one token.
func yamlMessage(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSpace(msg)
	if !yamlLine.MatchString(msg) {
		msg = "line 1: " + msg
	}
	return safeName(msg)
}

// marshal writes c as GitBook writes .gitbook.yaml.
func (c Config) marshal() []byte {
	var b bytes.Buffer
	root := c.Root
	if root == "" {
		root = "./"
	} else {
		root = "./" + root + "/"
	}
	fmt.Fprintf(&b, "root: %s\n", yamlScalar(root))
	b.WriteString("\nstructure:\n")
	fmt.Fprintf(&b, "  readme: %s\n", yamlScalar(orDefault(c.Readme, defaultReadme)))
	fmt.Fprintf(&b, "  summary: %s\n", yamlScalar(orDefault(c.Summary, defaultSummary)))
	if len(c.Redirects) > 0 {
		b.WriteString("\nredirects:\n")
		keys := make([]string, 0, len(c.Redirects))
		for k := range c.Redirects {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s: %s\n", yamlScalar(k), yamlScalar(c.Redirects[k]))
		}
	}
	return b.Bytes()
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// equal reports whether two configurations mean the same.
func (c Config) equal(o Config) bool {
	if c.Root != o.Root || orDefault(c.Readme, defaultReadme) != orDefault(o.Readme, defaultReadme) ||
		orDefault(c.Summary, defaultSummary) != orDefault(o.Summary, defaultSummary) || len(c.Redirects) != len(o.Redirects) {
		return false
	}
	for k, v := range c.Redirects {
		if w, ok := o.Redirects[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// yamlScalar writes s as a plain YAML scalar when that reads back as the
// same string, else double-quoted.
func yamlScalar(s string) string {
	if s != "" && !strings.ContainsAny(s, "\n\r\t\"'#") && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ") {
		var m map[string]any
		if yaml.Unmarshal([]byte("k: "+s), &m) == nil {
			if v, ok := m["k"].(string); ok && v == s {
				return s
			}
		}
	}
	b, _ := yaml.Marshal(s)
	out := strings.TrimSuffix(string(b), "\n")
	if strings.Contains(out, "\n") {
		// Multi-line forms: fall back to a JSON-style double-quoted string,
		// which YAML reads the same.
		return fmt.Sprintf("%q", s)
	}
	return out
}
