// A panel for a capability that is not built yet: says what will be there and where to follow it,
// so the navigation shows the whole product without pretending.
#pragma once
#include <QWidget>

class PlaceholderPanel : public QWidget {
    Q_OBJECT
public:
    PlaceholderPanel(const QString& title, const QString& description, QWidget* parent = nullptr);
};
