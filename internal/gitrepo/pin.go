package gitrepo

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/go-git/go-git/v5/plumbing/transport"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
)

// dialURL is the URL go-git connects to.
func (ep *endpoint) dialURL() string {
	if ep.dial != "" {
		return ep.dial
	}
	return ep.url
}

// pinSSH vets the addresses of an ssh remote's host with
// Options.CheckAddress and pins the connection to the first one accepted:
// go-git's ssh transport dials by itself, with no hook for a dialer, so the
// URL it gets names the address instead of the host, and the host key is
// still checked against the host's name. http(s) and file remotes are left
// alone.
func (c *Client) pinSSH(ctx context.Context, ep *endpoint) error {
	keys, ok := ep.auth.(*gitssh.PublicKeys)
	if !ok || c.o.CheckAddress == nil {
		return nil
	}
	te, err := transport.NewEndpoint(ep.url)
	if err != nil || te.Host == "" {
		return folio.FieldErrorf("url", "url is not a valid git repository URL")
	}
	port := te.Port
	if port == 0 {
		port = 22
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(te.Host); err == nil {
		addrs = []netip.Addr{ip}
	} else if addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", te.Host); err != nil {
		return kindError(folio.Unavailable, ErrUnavailable, nil, "could not reach the git server at %s", ep.redacted)
	}
	var pinned netip.Addr
	for _, a := range addrs {
		if c.o.CheckAddress(a.Unmap()) == nil {
			pinned = a.Unmap()
			break
		}
	}
	if !pinned.IsValid() {
		return kindError(folio.Invalid, ErrNotAllowed, nil, "the git server at %s is on a private network address, which git sync may not reach", ep.redacted)
	}
	hostPort := net.JoinHostPort(te.Host, strconv.Itoa(port))
	path := te.Path
	if !strings.HasPrefix(path, "/") {
		// scp-like user@host:path: its path is relative to the login's
		// home, which the ssh:// form cannot say; the scp form takes an
		// IPv4 address but not an IPv6 one.
		if pinned.Is4() {
			ep.dial = te.User + "@" + pinned.String() + ":" + path
		} else {
			ep.dial = "ssh://" + te.User + "@" + net.JoinHostPort(pinned.String(), strconv.Itoa(port)) + "/" + path
		}
	} else {
		ep.dial = "ssh://" + te.User + "@" + net.JoinHostPort(pinned.String(), strconv.Itoa(port)) + path
	}
	// The host key is looked up under the name the URL gave.
	pk := *keys
	check := keys.HostKeyCallback
	pk.HostKeyCallback = func(_ string, remote net.Addr, key ssh.PublicKey) error {
		return check(hostPort, remote, key)
	}
	ep.auth = &pk
	return nil
}
