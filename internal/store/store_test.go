package store_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

func newOrg(t *testing.T, db *store.DB, owner folio.ID, hostname string) *folio.Organization {
	t.Helper()
	ctx := context.Background()
	o := &folio.Organization{ID: folio.NewID(), Title: "Org", Type: "business", Hostname: hostname,
		InviteLinks: true, MergeRules: folio.MergeRules{Type: "none"}, DefaultRole: folio.RoleRead}
	err := db.Write(ctx, func(tx *store.Tx) error {
		o.CreatedAt, o.UpdatedAt = tx.Now, tx.Now
		if err := store.CreateOrganization(ctx, tx, o); err != nil {
			return err
		}
		return store.AddMember(ctx, tx, &folio.Member{OrganizationID: o.ID, UserID: owner, Role: folio.RoleAdmin, JoinedAt: tx.Now})
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func newUser(t *testing.T, db *store.DB, email string) *folio.User {
	t.Helper()
	var u *folio.User
	err := db.Write(context.Background(), func(tx *store.Tx) (err error) {
		u, err = store.CreateUser(context.Background(), tx, folio.NewUser{Email: email, DisplayName: email})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// newSpace stores a space of a new organization of a new user.
func newSpace(t *testing.T, db *store.DB, email string) folio.Space {
	t.Helper()
	ctx := context.Background()
	o := newOrg(t, db, newUser(t, db, email).ID, "")
	sp := folio.Space{ID: folio.NewID(), OrganizationID: o.ID, Title: "S", EditMode: "live", Visibility: "private",
		Revision: folio.NewID(), MergeRules: folio.MergeRules{Type: "inherit"}, DefaultLevel: folio.Level{Inherit: true}}
	err := db.Write(ctx, func(tx *store.Tx) error {
		sp.CreatedAt, sp.UpdatedAt = tx.Now, tx.Now
		return store.CreateSpace(ctx, tx, &sp)
	})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestUniqueConstraintsAreConflicts(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := newUser(t, db, "a@example.com")
		err := db.Write(ctx, func(tx *store.Tx) error {
			_, err := store.CreateUser(ctx, tx, folio.NewUser{Email: "a@example.com", DisplayName: "x"})
			return err
		})
		if folio.KindOf(err) != folio.Conflict {
			t.Fatalf("duplicate email: got %v, want Conflict", err)
		}
		newOrg(t, db, u.ID, "docs")
		err = db.Write(ctx, func(tx *store.Tx) error {
			o := &folio.Organization{ID: folio.NewID(), Title: "B", Type: "business", Hostname: "docs", CreatedAt: tx.Now, UpdatedAt: tx.Now}
			return store.CreateOrganization(ctx, tx, o)
		})
		if folio.KindOf(err) != folio.Conflict {
			t.Fatalf("duplicate hostname: got %v, want Conflict", err)
		}
	})
}

func TestFailedWriteChangesNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		err := db.Write(ctx, func(tx *store.Tx) error {
			if _, err := store.CreateUser(ctx, tx, folio.NewUser{Email: "x@example.com", DisplayName: "x"}); err != nil {
				return err
			}
			_, err := store.CreateUser(ctx, tx, folio.NewUser{Email: "x@example.com", DisplayName: "x"})
			return err
		})
		if err == nil {
			t.Fatal("second insert should fail")
		}
		var n int
		db.Read(ctx, func(tx *store.Tx) (err error) { n, err = store.CountUsers(ctx, tx); return err })
		if n != 0 {
			t.Fatalf("users after rolled back transaction = %d, want 0", n)
		}
	})
}

func TestOrganizationListPagesStayStableWhileInserting(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := newUser(t, db, "p@example.com")
		var want []string
		for range 7 {
			want = append(want, newOrg(t, db, u.ID, "").ID)
		}
		var got []string
		opts := folio.ListOptions{Limit: 3}
		for i := 0; ; i++ {
			var l folio.List[folio.OrganizationView]
			err := db.Read(ctx, func(tx *store.Tx) (err error) {
				l, err = store.ListOrganizationsForUser(ctx, tx, u.ID, opts)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range l.Items {
				got = append(got, o.ID)
			}
			if l.Count != len(want) {
				t.Errorf("count = %d, want %d", l.Count, len(want))
			}
			if i == 0 {
				want = append(want, newOrg(t, db, u.ID, "").ID) // inserted while paging
			}
			if l.Next == "" {
				break
			}
			c, err := folio.DecodeCursor(l.Next)
			if err != nil {
				t.Fatal(err)
			}
			opts.After = c
		}
		if !slices.Equal(got, want) {
			t.Fatalf("paged ids = %v, want %v", got, want)
		}
	})
}

func TestNewerSchemaIsRefused(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		_, latest, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Write(ctx, func(tx *store.Tx) error { return store.FakeFutureMigration(ctx, tx, latest+1) })
		if err != nil {
			t.Fatal(err)
		}
		err = db.Migrate(ctx)
		if err == nil {
			t.Fatal("Migrate on a newer schema succeeded")
		}
		t.Log(err)
	})
}

// TestWALStaysBounded writes 100,000 rows through the store, half of them by
// UPDATE ... RETURNING, and checks that the WAL is checkpointed along the way.
func TestWALStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long write test")
	}
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t, "sqlite", store.Config{DataDir: ""})
	u := newUser(t, db, "w@example.com")
	o := newOrg(t, db, u.ID, "")
	wal := filepath.Join(db.DataDir(), store.SQLiteFile+"-wal")
	maxSize := int64(0)
	for i := range 50_000 {
		err := db.Write(ctx, func(tx *store.Tx) error {
			if err := store.CreateToken(ctx, tx, &folio.Token{UserID: u.ID, Label: "t"}, folio.NewID()); err != nil {
				return err
			}
			_, err := store.TouchMember(ctx, tx, o.ID, u.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if i%1000 == 0 {
			if st, err := os.Stat(wal); err == nil && st.Size() > maxSize {
				maxSize = st.Size()
			}
		}
	}
	// The default auto-checkpoint runs every 1000 pages (4 MB); allow slack.
	if maxSize > 16<<20 {
		t.Fatalf("WAL grew to %d bytes", maxSize)
	}
	t.Logf("largest WAL seen: %d bytes", maxSize)
}
