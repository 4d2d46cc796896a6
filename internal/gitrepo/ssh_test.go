package gitrepo_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"net"
	"net/netip"
	"os/exec"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// sshServer runs an SSH server on loopback that accepts clientKey and
// serves git-upload-pack and git-receive-pack with Debian's git (the peer).
// It returns the address and the known_hosts line of its host key.
func sshServer(t *testing.T, clientKey ssh.PublicKey) (addr, knownHostsLine string) {
	t.Helper()
	_, hostPriv, _ := ed25519.GenerateKey(rand.Reader)
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if string(k.Marshal()) != string(clientKey.Marshal()) {
			return nil, errors.New("unknown key")
		}
		return nil, nil
	}}
	cfg.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSSH(conn, cfg)
		}
	}()
	addr = ln.Addr().String()
	return addr, knownhosts.Line([]string{knownhosts.Normalize(addr)}, hostSigner.PublicKey())
}

func serveSSH(conn net.Conn, cfg *ssh.ServerConfig) {
	_, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		conn.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "session only")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go func() {
			defer ch.Close()
			for req := range chReqs {
				if req.Type != "exec" || len(req.Payload) < 4 {
					req.Reply(false, nil)
					continue
				}
				n := binary.BigEndian.Uint32(req.Payload)
				command := string(req.Payload[4:][:n])
				prog, arg, _ := strings.Cut(command, " ")
				if prog != "git-upload-pack" && prog != "git-receive-pack" {
					req.Reply(false, nil)
					return
				}
				req.Reply(true, nil)
				cmd := exec.Command("git", strings.TrimPrefix(prog, "git-"), strings.Trim(arg, "'"))
				cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
				status := uint32(0)
				if err := cmd.Run(); err != nil {
					status = 1
				}
				ch.CloseWrite()
				ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
				return
			}
		}()
	}
}

func TestSSH(t *testing.T) {
	gittest.Require(t, false)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(block)
	sshPub, _ := ssh.NewPublicKey(pub)
	addr, line := sshServer(t, sshPub)

	dir := gittest.Bare(t)
	hash := gittest.Commit(t, dir, "main", map[string]string{"a.md": "a"}, "first")
	r := gitrepo.Remote{URL: "ssh://git@" + addr + dir, Ref: "refs/heads/main"}

	t.Run("fetch and push", func(t *testing.T) {
		c := newClient(t, func(o *gitrepo.Options) { o.SSHKey, o.SSHKnownHosts = keyPEM, []byte(line+"\n") })
		got, err := c.Fetch(context.Background(), r, "s")
		if err != nil {
			t.Fatal(err)
		}
		if got.Hash != hash {
			t.Fatalf("hash = %s, want %s", got.Hash, hash)
		}
		files := map[string]string{"a.md": "b"}
		pushed, err := c.Push(context.Background(), r, "s", got.Hash, toBytes(files), "over ssh", author, false)
		if err != nil {
			t.Fatal(err)
		}
		if head := gittest.Head(t, dir, "main"); head != pushed {
			t.Fatalf("head = %s, pushed %s", head, pushed)
		}
		if diff := cmp.Diff(files, gittest.Read(t, dir, "main")); diff != "" {
			t.Errorf("tree (-want +got):\n%s", diff)
		}
	})
	// The address check vets what the host resolves to before any
	// connection; the connection goes to the address it accepted, and the
	// host key is still looked up under the URL's host name.
	t.Run("address refused", func(t *testing.T) {
		var vetted []netip.Addr
		c := newClient(t, func(o *gitrepo.Options) {
			o.SSHKey, o.SSHKnownHosts = keyPEM, []byte(line+"\n")
			o.CheckAddress = func(a netip.Addr) error { vetted = append(vetted, a); return errors.New("not public") }
		})
		_, err := c.Fetch(context.Background(), r, "")
		if !errors.Is(err, gitrepo.ErrNotAllowed) || !strings.Contains(err.Error(), "private network address") || len(vetted) != 1 {
			t.Fatalf("err = %v (vetted %v), want ErrNotAllowed", err, vetted)
		}
	})
	t.Run("pinned by name", func(t *testing.T) {
		_, port, _ := net.SplitHostPort(addr)
		byName := knownhosts.Line([]string{knownhosts.Normalize("localhost:" + port)}, hostKeyOf(t, line))
		var vetted []netip.Addr
		c := newClient(t, func(o *gitrepo.Options) {
			o.SSHKey, o.SSHKnownHosts = keyPEM, []byte(byName+"\n")
			o.CheckAddress = func(a netip.Addr) error {
				vetted = append(vetted, a)
				if a != netip.MustParseAddr("127.0.0.1") {
					return errors.New("refused")
				}
				return nil
			}
		})
		got, err := c.Fetch(context.Background(), gitrepo.Remote{URL: "ssh://git@localhost:" + port + dir, Ref: "refs/heads/main"}, "")
		if err != nil {
			t.Fatalf("fetch by name: %v (vetted %v)", err, vetted)
		}
		if got.Empty || len(vetted) == 0 {
			t.Fatalf("fetched %+v, vetted %v", got, vetted)
		}
	})
	t.Run("unknown host key", func(t *testing.T) {
		_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
		other, _ := ssh.NewSignerFromKey(otherPriv)
		hosts := knownhosts.Line([]string{knownhosts.Normalize(addr)}, other.PublicKey())
		c := newClient(t, func(o *gitrepo.Options) { o.SSHKey, o.SSHKnownHosts = keyPEM, []byte(hosts+"\n") })
		if _, err := c.Fetch(context.Background(), r, ""); !errors.Is(err, gitrepo.ErrAuth) {
			t.Fatalf("err = %v, want ErrAuth", err)
		}
	})
	t.Run("key not accepted", func(t *testing.T) {
		_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
		block, _ := ssh.MarshalPrivateKey(otherPriv, "")
		c := newClient(t, func(o *gitrepo.Options) { o.SSHKey, o.SSHKnownHosts = pem.EncodeToMemory(block), []byte(line+"\n") })
		if _, err := c.Fetch(context.Background(), r, ""); !errors.Is(err, gitrepo.ErrAuth) {
			t.Fatalf("err = %v, want ErrAuth", err)
		}
	})
}

// hostKeyOf reads the key of a known_hosts line.
func hostKeyOf(t *testing.T, line string) ssh.PublicKey {
	t.Helper()
	_, _, key, _, _, err := ssh.ParseKnownHosts([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return key
}
