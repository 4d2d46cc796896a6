package gitrepo

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
)

// maxURLLen bounds the URL of a remote, in bytes.
const maxURLLen = 2048

// Redact returns rawURL without credentials (the password, or a user that
// carries a token), query or fragment, for responses and logs. A URL that
// does not parse is cut down the same way by hand, never returned as is.
func Redact(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil && u.Scheme != "" && u.Opaque == "" {
		if u.User != nil {
			if _, hasPassword := u.User.Password(); hasPassword || u.Scheme == "http" || u.Scheme == "https" {
				u.User = nil
			}
		}
		u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
		return u.String()
	}
	s := rawURL
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		rest := s[i+3:]
		auth := rest
		if j := strings.Index(rest, "/"); j >= 0 {
			auth = rest[:j]
		}
		if k := strings.LastIndex(auth, "@"); k >= 0 {
			s = s[:i+3] + rest[k+1:]
		}
		return s
	}
	// scp-like user@host:path carries no password; a colon before the @
	// could be one, so the user part goes.
	if at := strings.LastIndex(s, "@"); at >= 0 && strings.Contains(s[:at], ":") {
		s = s[at+1:]
	}
	return s
}

// endpoint is a parsed and permitted remote: the URL handed to go-git (no
// credentials), its auth method and the secrets to scrub from errors.
type endpoint struct {
	url      string // credential-free
	dial     string // the URL go-git connects to: url, or for ssh with its host pinned to a vetted address
	redacted string
	ref      plumbing.ReferenceName
	auth     transport.AuthMethod
	secrets  []string
	local    bool   // served in process (file://): no shallow fetch, which go-git's server lacks
	path     string // for local: the repository's path
}

var scpLike = regexp.MustCompile(`^([A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:[^/\\]`)

// endpoint validates r against the Options. It fails with Invalid errors
// (ErrNotAllowed for a transport that is turned off) whose messages never
// contain the URL's credentials.
func (c *Client) endpoint(r Remote) (*endpoint, error) {
	ep := &endpoint{redacted: Redact(r.URL)}
	if r.URL == "" {
		return nil, folio.FieldErrorf("url", "url is required")
	}
	if len(r.URL) > maxURLLen {
		return nil, folio.FieldErrorf("url", "url must be at most %d characters", maxURLLen)
	}
	ref := plumbing.ReferenceName(r.Ref)
	if !strings.HasPrefix(r.Ref, "refs/heads/") || len(r.Ref) == len("refs/heads/") || len(r.Ref) > 255 || ref.Validate() != nil {
		return nil, folio.FieldErrorf("ref", "ref must be refs/heads/<branch>")
	}
	ep.ref = ref
	invalid := func() error {
		return folio.FieldErrorf("url", "url is not a valid git repository URL")
	}
	if strings.ContainsAny(r.URL, "\x00\r\n\t ") {
		return nil, invalid()
	}

	switch {
	case strings.HasPrefix(r.URL, "/") || strings.HasPrefix(strings.ToLower(r.URL), "file://"):
		if !c.o.AllowFile {
			return nil, kindError(folio.Invalid, ErrNotAllowed, nil, "local repositories are not allowed on this server")
		}
		p := r.URL
		if !strings.HasPrefix(p, "/") {
			u, err := url.Parse(r.URL)
			if err != nil || (u.Host != "" && u.Host != "localhost") || u.User != nil || !strings.HasPrefix(u.Path, "/") {
				return nil, invalid()
			}
			p = u.Path
		}
		p = path.Clean(p)
		ep.url = "file://" + p
		ep.auth = localAuth{}
		ep.local, ep.path = true, p
		return ep, nil

	case scpLike.MatchString(r.URL) && !strings.Contains(r.URL, "://"):
		return c.sshEndpoint(ep, r.URL, "")
	}

	u, err := url.Parse(r.URL)
	if err != nil || u.Host == "" || u.Opaque != "" {
		ep.secrets = []string{r.URL}
		return nil, invalid()
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if c.o.HTTP == nil {
			return nil, kindError(folio.Invalid, ErrNotAllowed, nil, "http repositories are not allowed on this server")
		}
		if u.User != nil {
			pw, _ := u.User.Password()
			user := u.User.Username()
			ep.auth = &githttp.BasicAuth{Username: user, Password: pw}
			ep.secrets = append(ep.secrets, pw, u.User.String())
			if pw == "" {
				// A lone user part is how tokens are often passed.
				ep.secrets = append(ep.secrets, user)
			}
			u.User = nil
		}
		u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
		ep.url = u.String()
		return ep, nil
	case "ssh":
		user := "git"
		if u.User != nil {
			if _, has := u.User.Password(); has {
				return nil, folio.FieldErrorf("url", "ssh URLs must not carry a password")
			}
			user = u.User.Username()
		}
		u.User = nil
		return c.sshEndpoint(ep, u.String(), user)
	default:
		return nil, kindError(folio.Invalid, ErrNotAllowed, nil, "only http, https, ssh and (when allowed) file repository URLs are supported")
	}
}

func (c *Client) sshEndpoint(ep *endpoint, rawURL, user string) (*endpoint, error) {
	if c.o.SSHKey == nil {
		return nil, kindError(folio.Invalid, ErrNotAllowed, nil, "ssh repositories are not allowed on this server")
	}
	if user == "" {
		user = "git"
		if at := strings.Index(rawURL, "@"); at >= 0 {
			user, rawURL = rawURL[:at], rawURL[at+1:]
		}
	}
	auth, err := c.sshAuth(user)
	if err != nil {
		return nil, err
	}
	ep.url = rawURL
	if !strings.Contains(rawURL, "://") {
		ep.url = user + "@" + rawURL
	} else if u, err := url.Parse(rawURL); err == nil {
		u.User = url.User(user)
		ep.url = u.String()
	}
	ep.auth = auth
	return ep, nil
}

func (c *Client) sshAuth(user string) (transport.AuthMethod, error) {
	keys, err := gitssh.NewPublicKeys(user, c.o.SSHKey, "")
	if err != nil {
		return nil, folio.Errorf(folio.Invalid, "the SSH key is not a valid unencrypted PEM private key")
	}
	cb, err := gitssh.NewKnownHostsCallback(c.knownHostsFile)
	if err != nil {
		return nil, folio.Errorf(folio.Invalid, "the SSH known hosts are not valid")
	}
	keys.HostKeyCallback = cb
	return keys, nil
}
