package httpapi

import (
	"net/http"
	"strconv"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) createSpace(w http.ResponseWriter, r *http.Request) error {
	var in folio.NewSpace
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateSpace(r.Context(), caller(r), r.PathValue("organizationId"), in)
	if err != nil {
		return err
	}
	out := s.urls.NewSpace(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) listSpacesInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListSpaces(r.Context(), caller(r), r.PathValue("organizationId"), "", opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewSpace))
	return nil
}

func (s *Server) getSpaceByID(w http.ResponseWriter, r *http.Request) error {
	// shareKey opens a space published through a share-link site.
	v, err := s.app.GetSharedSpace(r.Context(), caller(r), r.PathValue("spaceId"), r.URL.Query().Get("shareKey"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSpace(v))
	return nil
}

func (s *Server) updateSpaceByID(w http.ResponseWriter, r *http.Request) error {
	var in folio.SpaceUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateSpace(r.Context(), caller(r), r.PathValue("spaceId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSpace(v))
	return nil
}

func (s *Server) createCollection(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title  string `json:"title"`
		Parent string `json:"parent"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateCollection(r.Context(), caller(r), r.PathValue("organizationId"), in.Title, in.Parent)
	if err != nil {
		return err
	}
	out := s.urls.NewCollection(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) listCollectionsInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	nested := true
	if v := r.URL.Query().Get("nested"); v != "" {
		if nested, err = strconv.ParseBool(v); err != nil {
			return folio.FieldErrorf("nested", "nested must be true or false")
		}
	}
	l, err := s.app.ListCollections(r.Context(), caller(r), r.PathValue("organizationId"), nested, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewCollection))
	return nil
}

func (s *Server) getCollectionByID(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetCollection(r.Context(), caller(r), r.PathValue("collectionId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCollection(v))
	return nil
}

func (s *Server) updateCollectionByID(w http.ResponseWriter, r *http.Request) error {
	var in app.CollectionUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateCollection(r.Context(), caller(r), r.PathValue("collectionId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCollection(v))
	return nil
}

func (s *Server) listSpacesInCollectionByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListSpaces(r.Context(), caller(r), "", r.PathValue("collectionId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewSpace))
	return nil
}

func (s *Server) deleteSpaceByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteSpace(r.Context(), caller(r), r.PathValue("spaceId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) restoreSpace(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.RestoreSpace(r.Context(), caller(r), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSpace(v))
	return nil
}

func (s *Server) duplicateSpace(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.DuplicateSpace(r.Context(), caller(r), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	out := s.urls.NewSpace(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) moveSpace(w http.ResponseWriter, r *http.Request) error {
	var in app.MoveInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.MoveSpace(r.Context(), caller(r), r.PathValue("spaceId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSpace(v))
	return nil
}

func (s *Server) moveCollection(w http.ResponseWriter, r *http.Request) error {
	var in app.MoveInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.MoveCollection(r.Context(), caller(r), r.PathValue("collectionId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCollection(v))
	return nil
}

type transferBody struct {
	Organization string `json:"organization"`
}

func (s *Server) transferSpace(w http.ResponseWriter, r *http.Request) error {
	var in transferBody
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.TransferSpace(r.Context(), caller(r), r.PathValue("spaceId"), in.Organization)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSpace(v))
	return nil
}

func (s *Server) transferCollection(w http.ResponseWriter, r *http.Request) error {
	var in transferBody
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.TransferCollection(r.Context(), caller(r), r.PathValue("collectionId"), in.Organization)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCollection(v))
	return nil
}

func (s *Server) deleteCollectionByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteCollection(r.Context(), caller(r), r.PathValue("collectionId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
